import { sameSecret } from '../crypto';
import { ApiError, errors } from '../errors';

/**
 * The operator API's check (routes with `auth: 'operator'`): without a configured token the routes do not exist
 * (answered like any unknown path); a missing or wrong `X-Operator-Token` is 401.
 */
export function checkOperatorToken(configured: string, given: string | undefined): void {
  if (!configured) throw errors.notFound('The route');
  if (given === undefined || !sameSecret(configured, given)) throw errors.operatorUnauthenticated();
}

/** The challenge `GET /metrics` answers with its 401 (a scraper's bearer-token setting answers it). */
export const METRICS_CHALLENGE = 'Bearer realm="metrics"';

/**
 * `GET /metrics` takes the operator token too, in `X-Operator-Token` or as `Authorization: Bearer` (what Prometheus
 * and other scrapers send): the figures describe the whole service, every store's traffic included. Without a
 * configured token they are not served at all, like the operator API.
 */
export function checkMetricsToken(configured: string, operatorHeader: string | undefined, bearer: string | undefined, challenge: () => void): void {
  if (!configured) throw errors.notFound('The route');
  const given = operatorHeader ?? bearer;
  if (given === undefined || !sameSecret(configured, given)) {
    challenge();
    throw new ApiError(401, 'unauthenticated', 'Metrics need the operator token, in X-Operator-Token or as Authorization: Bearer <token>.');
  }
}
