import { sqlMigration } from './sql-migration';

/**
 * The HMACs of the codes that came back to a sign-in's callback in another browser than the one that opened it: the
 * state stays usable by the opening browser, but none of those codes is ever exchanged, by anyone.
 */
export const SignInRefusedCodes1765065600401 = sqlMigration('SignInRefusedCodes1765065600401', {
  up: [`ALTER TABLE supplier_sign_in_states ADD COLUMN refused_code_digests text[] NOT NULL DEFAULT '{}'`],
  down: ['ALTER TABLE supplier_sign_in_states DROP COLUMN refused_code_digests'],
});
