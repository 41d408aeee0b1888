import { sameSecret } from '../crypto';
import { errors } from '../errors';

/**
 * The operator API's check (routes with `auth: 'operator'`): without a configured token the routes do not exist
 * (answered like any unknown path); a missing or wrong `X-Operator-Token` is 401.
 */
export function checkOperatorToken(configured: string, given: string | undefined): void {
  if (!configured) throw errors.notFound('The route');
  if (given === undefined || !sameSecret(configured, given)) throw errors.operatorUnauthenticated();
}
