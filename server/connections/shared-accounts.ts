import type { DataSource } from 'typeorm';
import { sqlRows } from '../platform/db';
import type { SupplierAdapter } from '../suppliers/adapter';
import type { SupplierRegistry } from '../suppliers/registry';
import { SupplierConnection } from './entities';
import type { SupplierGateway } from './gateway';

type Identified = Pick<SupplierConnection, 'id' | 'supplierAccountKey'>;

/**
 * Connections on one supplier account (several stores, or a reconnect) share the supplier's one notification
 * address: whichever of them registered last receives, and the service routes what arrives by who owns it.
 */
export class SharedAccounts {
  constructor(
    private readonly db: DataSource,
    private readonly registry: SupplierRegistry,
    private readonly gateway: SupplierGateway,
    /** Registers a connection's own address with its supplier (and keeps what the supplier answers). */
    private readonly register: (conn: SupplierConnection) => Promise<void>,
  ) {}

  /** Ids of the live connections on the same supplier account, the given one first. */
  async connectionIdsOf(conn: Identified): Promise<string[]> {
    if (!conn.supplierAccountKey) return [conn.id];
    const rows = await sqlRows<{ id: string }>(this.db, 'SELECT id FROM supplier_connections WHERE supplier_account_key = $1 AND disconnected_at IS NULL AND id <> $2', [conn.supplierAccountKey, conn.id]);
    return [conn.id, ...rows.map((r) => r.id)];
  }

  /** Which of these account keys have more than one live connection. */
  async sharedKeys(keys: Array<string | null>): Promise<Set<string>> {
    const wanted = [...new Set(keys.filter((k): k is string => !!k))];
    if (!wanted.length) return new Set();
    const rows = await sqlRows<{ key: string }>(
      this.db,
      'SELECT supplier_account_key AS key FROM supplier_connections WHERE supplier_account_key = ANY($1) AND disconnected_at IS NULL GROUP BY 1 HAVING count(*) > 1',
      [wanted],
    );
    return new Set(rows.map((r) => r.key));
  }

  /**
   * Registers the address of the newest other connection on the account that is switched on, so the supplier's
   * one address never points at a connection that stopped. When that fails, it is registered again at the next start.
   */
  async handOver(accountKey: string | null, leaving: string): Promise<void> {
    if (!accountKey) return;
    const [next] = await sqlRows<{ id: string }>(
      this.db,
      `SELECT id FROM supplier_connections WHERE supplier_account_key = $1 AND disconnected_at IS NULL AND enabled AND credentials_sealed IS NOT NULL AND id <> $2
        ORDER BY created_at DESC, id DESC LIMIT 1`,
      [accountKey, leaving],
    );
    if (!next) return;
    const conn = await this.db.getRepository(SupplierConnection).findOneByOrFail({ id: next.id });
    if (this.registry.isSwitchedOff(conn.supplierKey)) return;
    try {
      await this.register(conn);
    } catch (err) {
      await this.db.getRepository(SupplierConnection).update({ id: conn.id }, { registeredWebhookUrl: null });
      throw err;
    }
  }

  /** For connections made before accounts were told apart: asks the supplier once which account they are on. */
  async identify(conn: SupplierConnection, adapter: SupplierAdapter): Promise<void> {
    const { accountId } = await this.gateway.call(conn, (a, ctx) => adapter.verifyCredentials(ctx));
    const supplierAccountKey = this.gateway.supplierAccountKey(accountId);
    if (supplierAccountKey) await this.db.getRepository(SupplierConnection).update({ id: conn.id }, { supplierAccountKey });
  }
}
