import { accountSchema } from '../identity/schemas';
import { defineRoutes, route } from '../platform/http/route';
import type { OperatorService } from './service';
import { accountByEmail, accountParams, creditGrant, planChange } from './schemas';

const TAG = 'Operator';

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
      tag: TAG,
      auth: 'operator',
      readOnly: true,
      summary: 'Operator: the account with this e-mail address',
      query: accountByEmail,
      response: { status: 200, schema: accountSchema },
      handler: async ({ query }) => operator.findByEmail(query.email),
    }),
    route({
      operationId: 'operatorSetPlan',
      method: 'put',
      path: '/api/operator/accounts/:accountId/plan',
      tag: TAG,
      auth: 'operator',
      readOnly: false,
      summary: "Operator: change an account's plan (immediate)",
      params: accountParams,
      body: planChange,
      response: { status: 200, schema: accountSchema },
      handler: async ({ params: p, body }) => operator.setPlan(p.accountId, body.plan),
    }),
    route({
      operationId: 'operatorGrantCredits',
      method: 'post',
      path: '/api/operator/accounts/:accountId/credits',
      tag: TAG,
      auth: 'operator',
      readOnly: false,
      summary: 'Operator: grant credits to an account; the reason is kept in its credit ledger',
      params: accountParams,
      body: creditGrant,
      response: { status: 200, schema: accountSchema },
      handler: async ({ params: p, body, requestId }) => operator.grantCredits(p.accountId, body.amount, body.reason, requestId),
    }),
  ]);
}
