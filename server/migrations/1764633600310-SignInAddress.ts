import { sqlMigration } from './sql-migration';

/**
 * A sign-in's own id, for its address at this service (`/console#connect/<storeId>/<id>`): distinct from the state
 * the supplier carries back, so the address a merchant is sent names the sign-in without carrying its state.
 */
export const SignInAddress1764633600310 = sqlMigration('SignInAddress1764633600310', {
  up: ['ALTER TABLE supplier_sign_in_states ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE'],
  down: ['ALTER TABLE supplier_sign_in_states DROP COLUMN id'],
});
