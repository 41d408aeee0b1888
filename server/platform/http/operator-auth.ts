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
 * `GET /metrics` takes the read-only metrics token (METRICS_TOKEN) as `Authorization: Bearer` (what Prometheus and
 * other scrapers send), or the operator token there or in `X-Operator-Token`: the figures describe the whole service,
 * every store's traffic included. The metrics token opens nothing else. Without either configured they are not served.
 */
export function checkMetricsToken(
  tokens: { operator: string; metrics: string },
  operatorHeader: string | undefined,
  bearer: string | undefined,
  challenge: () => void,
): void {
  if (!tokens.operator && !tokens.metrics) throw errors.notFound('The route');
  const byOperator = !!tokens.operator && [operatorHeader, bearer].some((given) => given !== undefined && sameSecret(tokens.operator, given));
  const byMetrics = !!tokens.metrics && bearer !== undefined && sameSecret(tokens.metrics, bearer);
  if (!byOperator && !byMetrics) {
    challenge();
    throw new ApiError(
      401,
      'unauthenticated',
      'Metrics need the metrics token as Authorization: Bearer <token> (or the operator token, in X-Operator-Token or as the bearer token).',
    );
  }
}
