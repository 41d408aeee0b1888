import { MigrationInterface, QueryRunner } from 'typeorm';

/** Disconnecting now removes a connection's product links; links left by earlier disconnects go the same way. */
export class UnlinkDisconnected1764201600182 implements MigrationInterface {
  name = 'UnlinkDisconnected1764201600182';

  async up(q: QueryRunner): Promise<void> {
    await q.query('DELETE FROM product_links l USING supplier_connections c WHERE c.id = l.connection_id AND c.disconnected_at IS NOT NULL');
  }

  async down(): Promise<void> {
    // Removed links are not brought back: they named a supplier that is gone.
  }
}
