import { sqlMigration } from './sql-migration';

/** The store member who opened the sign-in in their browser: they must still manage suppliers when it completes. */
export const SignInOpenedBy1764633600311 = sqlMigration('SignInOpenedBy1764633600311', {
  up: ['ALTER TABLE supplier_sign_in_states ADD COLUMN opened_by_account_id uuid REFERENCES accounts(id) ON DELETE CASCADE'],
  down: ['ALTER TABLE supplier_sign_in_states DROP COLUMN opened_by_account_id'],
});
