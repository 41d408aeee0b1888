import { PLANS } from '../identity/entities';
import { accountSchema } from '../identity/routes';
import { defineRoutes, route } from '../platform/http/route';
import { object, params } from '../platform/http/schemas';
import type { OperatorService } from './service';

const TAG = 'Operator';
const accountParams = params(['accountId']);
export const GRANT_LIMIT = 10_000_000;

/**
 * The operator API: plans and credit grants are the operator's, never a merchant's. Authenticated by the
 * operator token (`X-Operator-Token`, OPERATOR_TOKEN); with none configured every route here answers 404.
 */
export function operatorRoutes(operator: OperatorService) {
  return defineRoutes([
    route({
      operationId: 'operatorFindAccount',
      method: 'get',
      path: '/api/operator/accounts',
      summary: 'Operator: the account with this e-mail address',
      tag: TAG,
      auth: 'operator',
      readOnly: true,
      query: object({ email: { type: 'string', minLength: 1, maxLength: 254 } }, ['email']),
      response: { status: 200, schema: accountSchema },
      async handler({ query }) {
        return operator.findByEmail(query.email);
      },
    }),
    route({
      operationId: 'operatorSetPlan',
      method: 'put',
      path: '/api/operator/accounts/:accountId/plan',
      summary: 'Operator: change an account\'s plan (immediate)',
      tag: TAG,
      auth: 'operator',
      readOnly: false,
      params: accountParams,
      body: object({ plan: { enum: [...PLANS] } }, ['plan']),
      response: { status: 200, schema: accountSchema },
      async handler({ params: p, body }) {
        return operator.setPlan(p.accountId, body.plan);
      },
    }),
    route({
      operationId: 'operatorGrantCredits',
      method: 'post',
      path: '/api/operator/accounts/:accountId/credits',
      summary: 'Operator: grant credits to an account; the reason is kept in its credit ledger',
      tag: TAG,
      auth: 'operator',
      readOnly: false,
      params: accountParams,
      body: object({ amount: { type: 'integer', minimum: 1, maximum: GRANT_LIMIT }, reason: { type: 'string', minLength: 1, maxLength: 500 } }, ['amount', 'reason']),
      response: { status: 200, schema: accountSchema },
      async handler({ params: p, body, requestId }) {
        return operator.grantCredits(p.accountId, body.amount, body.reason, requestId);
      },
    }),
  ]);
}
