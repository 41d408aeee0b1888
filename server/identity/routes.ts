import { accountView, AccountService } from './accounts';
import type { ApiKeyService } from './api-keys';
import { keyRoutes } from './key-routes';
import { accountSchema, email, password, sessionAnswer } from './schemas';
import { defineRoutes, route, Reply } from '../platform/http/route';
import { dateTime, object } from '../platform/http/schemas';

/** Accounts and sessions, and (./key-routes.ts) the account's API keys. */
export function identityRoutes(accounts: AccountService, keys: ApiKeyService, publicBaseUrl: () => string) {
  const base = (origin: string) => publicBaseUrl() || origin;
  return defineRoutes([
    route({
      operationId: 'signUp',
      method: 'post',
      path: '/api/auth/sign-up',
      tag: 'Accounts',
      auth: 'none',
      readOnly: false,
      summary: 'Create an account (free plan) and sign in',
      body: object({ email, password, name: { type: 'string', minLength: 1, maxLength: 100 } }, ['email', 'password', 'name']),
      response: { status: 201, schema: sessionAnswer },
      async handler({ body }) {
        const { account, sessionToken } = await accounts.signUp(body);
        return { sessionToken, account: accountView(account) };
      },
    }),
    route({
      operationId: 'signIn',
      method: 'post',
      path: '/api/auth/sign-in',
      tag: 'Accounts',
      auth: 'none',
      readOnly: false,
      summary: 'Sign in with e-mail and password; answers a session token for `Authorization: Bearer`',
      body: object({ email, password: { type: 'string', minLength: 1, maxLength: 200 } }, ['email', 'password']),
      response: { status: 200, schema: sessionAnswer },
      async handler({ body }) {
        const { account, sessionToken } = await accounts.signIn(body.email, body.password);
        return { sessionToken, account: accountView(account) };
      },
    }),
    route({
      operationId: 'signOut',
      method: 'post',
      path: '/api/auth/sign-out',
      tag: 'Accounts',
      auth: 'session',
      readOnly: false,
      summary: 'End the current session',
      response: { status: 204, schema: {} },
      async handler({ caller }) {
        await accounts.signOut(caller!.sessionId!);
        return new Reply(204, undefined, true);
      },
    }),
    route({
      operationId: 'getAccount',
      method: 'get',
      path: '/api/account',
      tag: 'Accounts',
      auth: 'session',
      readOnly: true,
      summary: 'The signed-in account',
      response: { status: 200, schema: accountSchema },
      handler: async ({ caller }) => accountView(await accounts.get(caller!.accountId)),
    }),
    route({
      operationId: 'upgradeToDeveloper',
      method: 'post',
      path: '/api/account/developer',
      tag: 'Accounts',
      auth: 'session',
      readOnly: false,
      summary: 'Upgrade to a Developer account (free, immediate; plan and credits unchanged)',
      response: { status: 200, schema: accountSchema },
      handler: async ({ caller }) => accountView(await accounts.becomeDeveloper(caller!.accountId)),
    }),
    route({
      operationId: 'listCreditLedger',
      method: 'get',
      path: '/api/account/credits/ledger',
      tag: 'Accounts',
      auth: 'session',
      readOnly: true,
      summary: "The account's newest credit movements: charges, refunds and the operator's grants, each with the balance after it",
      query: object({ limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 } }),
      response: {
        status: 200,
        schema: {
          type: 'array',
          items: object(
            {
              action: { type: 'string' },
              amount: { type: 'integer', description: 'Negative for a charge' },
              balanceAfter: { type: 'integer' },
              apiKeyId: { type: ['string', 'null'] },
              requestId: { type: ['string', 'null'] },
              reason: { type: ['string', 'null'], description: 'Why the operator granted these credits' },
              createdAt: dateTime,
            },
            ['action', 'amount', 'balanceAfter', 'apiKeyId', 'requestId', 'reason', 'createdAt'],
          ),
        },
      },
      handler: async ({ caller, query }) => accounts.ledger(caller!.accountId, query.limit ?? 50),
    }),
    ...keyRoutes(accounts, keys, base),
  ]);
}
