import { sqlMigration } from './sql-migration';

/**
 * The HMAC of the one-time value the opening browser holds in a cookie: the supplier's way back completes the sign-in
 * only in that browser. The value itself is never stored.
 */
export const SignInBrowserDigest1764633600312 = sqlMigration('SignInBrowserDigest1764633600312', {
  up: ['ALTER TABLE supplier_sign_in_states ADD COLUMN browser_digest text'],
  down: ['ALTER TABLE supplier_sign_in_states DROP COLUMN browser_digest'],
});
