import { MigrationInterface, QueryRunner } from 'typeorm';

/** The automation's shipping-method rule; connections made before it take the cheapest service, as CJ always did. */
export class AutomationShippingMethod1764460800251 implements MigrationInterface {
  name = 'AutomationShippingMethod1764460800251';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE supplier_connections SET automation = automation || '{"shippingMethod": {"rule": "cheapest"}}'::jsonb WHERE NOT automation ? 'shippingMethod'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE supplier_connections SET automation = automation - 'shippingMethod'`);
  }
}
