import { sqlMigration } from './sql-migration';

/** The automation's shipping-method rule; connections made before it take the cheapest service, as CJ always did. */
export const AutomationShippingMethod1764460800251 = sqlMigration('AutomationShippingMethod1764460800251', {
  up: [
    `UPDATE supplier_connections SET automation = automation || '{"shippingMethod": {"rule": "cheapest"}}'::jsonb WHERE NOT automation ? 'shippingMethod'`,
  ],
  down: [`UPDATE supplier_connections SET automation = automation - 'shippingMethod'`],
});
