import { accountView, AccountService } from './accounts';
import { apiKeyView, ApiKeyService, maskKey } from './api-keys';
import { assistantLink } from '../assistant/link';
import { PLANS, RECORD_SCOPES } from './types';
import { accountSchema, apiKeySchema, assistantLinkSchema, email, keyName, password, sessionAnswer } from './schemas';
import { planIncludesDropshipping } from './permissions';
import type { KeyDescription } from './gate';
import { errors } from '../platform/errors';
import { defineRoutes, route, Reply } from '../platform/http/route';
import { dateTime, object, params, uuid } from '../platform/http/schemas';

export function identityRoutes(accounts: AccountService, keys: ApiKeyService, publicBaseUrl: () => string) {
  const base = (origin: string) => publicBaseUrl() || origin;
  return defineRoutes([
    route({
      operationId: 'signUp',
      method: 'post',
      path: '/api/auth/sign-up',
      summary: 'Create an account (free plan) and sign in',
      tag: 'Accounts',
      auth: 'none',
      readOnly: false,
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
      summary: 'Sign in with e-mail and password; answers a session token for `Authorization: Bearer`',
      tag: 'Accounts',
      auth: 'none',
      readOnly: false,
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
      summary: 'End the current session',
      tag: 'Accounts',
      auth: 'session',
      readOnly: false,
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
      summary: 'The signed-in account',
      tag: 'Accounts',
      auth: 'session',
      readOnly: true,
      response: { status: 200, schema: accountSchema },
      async handler({ caller }) {
        return accountView(await accounts.get(caller!.accountId));
      },
    }),
    route({
      operationId: 'upgradeToDeveloper',
      method: 'post',
      path: '/api/account/developer',
      summary: 'Upgrade to a Developer account (free, immediate; plan and credits unchanged)',
      tag: 'Accounts',
      auth: 'session',
      readOnly: false,
      response: { status: 200, schema: accountSchema },
      async handler({ caller }) {
        return accountView(await accounts.becomeDeveloper(caller!.accountId));
      },
    }),
    route({
      operationId: 'listCreditLedger',
      method: 'get',
      path: '/api/account/credits/ledger',
      summary: 'The account\'s newest credit movements: charges, refunds and the operator\'s grants, each with the balance after it',
      tag: 'Accounts',
      auth: 'session',
      readOnly: true,
      query: object({ limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 } }),
      response: {
        status: 200,
        schema: {
          type: 'array',
          items: object(
            { action: { type: 'string' }, amount: { type: 'integer', description: 'Negative for a charge' }, balanceAfter: { type: 'integer' }, apiKeyId: { type: ['string', 'null'] }, requestId: { type: ['string', 'null'] }, reason: { type: ['string', 'null'], description: 'Why the operator granted these credits' }, createdAt: dateTime },
            ['action', 'amount', 'balanceAfter', 'apiKeyId', 'requestId', 'reason', 'createdAt'],
          ),
        },
      },
      async handler({ caller, query }) {
        return accounts.ledger(caller!.accountId, query.limit ?? 50);
      },
    }),
    route({
      operationId: 'createApiKey',
      method: 'post',
      path: '/api/api-keys',
      summary: 'Create an API key (Developer accounts; signed-in users only). The full key is in the answer.',
      tag: 'API keys',
      auth: 'session',
      readOnly: false,
      body: object({ name: keyName, recordScope: { enum: [...RECORD_SCOPES], default: 'own' } }, ['name']),
      response: { status: 201, schema: object({ key: { type: 'string' }, apiKey: apiKeySchema, assistantLink: assistantLinkSchema }, ['key', 'apiKey', 'assistantLink']) },
      async handler({ caller, body, origin }) {
        const account = await accounts.get(caller!.accountId);
        if (!account.isDeveloper) throw errors.developerRequired();
        const { key, fullKey } = await keys.create(account.id, body);
        return { key: fullKey, apiKey: apiKeyView(key), assistantLink: assistantLink(base(origin), fullKey) };
      },
    }),
    route({
      operationId: 'listApiKeys',
      method: 'get',
      path: '/api/api-keys',
      summary: 'The account\'s API keys, masked (signed-in users only)',
      tag: 'API keys',
      auth: 'session',
      readOnly: true,
      response: { status: 200, schema: { type: 'array', items: { ...apiKeySchema, properties: { ...(apiKeySchema.properties as object), assistantLink: assistantLinkSchema }, required: [...apiKeySchema.required, 'assistantLink'] } } },
      async handler({ caller, origin }) {
        return (await keys.list(caller!.accountId)).map((k) => ({ ...apiKeyView(k), assistantLink: assistantLink(base(origin), maskKey(k.keyLast4)) }));
      },
    }),
    route({
      operationId: 'copyApiKey',
      method: 'get',
      path: '/api/api-keys/:keyId/secret',
      summary: 'The full key again, to copy (signed-in users only)',
      tag: 'API keys',
      auth: 'session',
      readOnly: true,
      params: params(['keyId']),
      response: { status: 200, schema: object({ key: { type: 'string' }, assistantLink: assistantLinkSchema }, ['key', 'assistantLink']) },
      async handler({ caller, params: p, origin }) {
        const key = await keys.reveal(caller!.accountId, p.keyId);
        return { key, assistantLink: assistantLink(base(origin), key) };
      },
    }),
    route({
      operationId: 'updateApiKey',
      method: 'patch',
      path: '/api/api-keys/:keyId',
      summary: 'Rename a key or change its record scope (signed-in users only)',
      tag: 'API keys',
      auth: 'session',
      readOnly: false,
      params: params(['keyId']),
      body: object({ name: keyName, recordScope: { enum: [...RECORD_SCOPES] } }, [], { minProperties: 1 }),
      response: { status: 200, schema: apiKeySchema },
      async handler({ caller, params: p, body }) {
        return apiKeyView(await keys.update(caller!.accountId, p.keyId, body));
      },
    }),
    route({
      operationId: 'revokeApiKey',
      method: 'delete',
      path: '/api/api-keys/:keyId',
      summary: 'Revoke a key; immediate and permanent (signed-in users only)',
      tag: 'API keys',
      auth: 'session',
      readOnly: false,
      params: params(['keyId']),
      response: { status: 200, schema: apiKeySchema },
      async handler({ caller, params: p }) {
        return apiKeyView(await keys.revoke(caller!.accountId, p.keyId));
      },
    }),
    route({
      operationId: 'getCurrentApiKey',
      method: 'get',
      path: '/api/api-key/current',
      summary: 'Describes the calling key: the key, its owner, the plan and the credits the account can spend',
      tag: 'API keys',
      auth: 'caller',
      readOnly: true,
      response: {
        status: 200,
        schema: object(
          {
            key: apiKeySchema,
            owner: object({ accountId: uuid, email: { type: 'string' }, name: { type: 'string' }, isDeveloper: { type: 'boolean' } }, ['accountId', 'email', 'name', 'isDeveloper']),
            plan: object({ name: { enum: [...PLANS] }, includesDropshipping: { type: 'boolean' } }, ['name', 'includesDropshipping']),
            credits: object({ available: { type: 'integer' } }, ['available']),
            assistantLink: assistantLinkSchema,
          },
          ['key', 'owner', 'plan', 'credits', 'assistantLink'],
        ),
      },
      async handler({ caller, origin }) {
        if (!caller!.apiKey) throw errors.badRequest('apiKeyRequired', 'This route describes the calling API key; send one in X-API-Key.');
        // Authentication read the key and its account in its one statement.
        const described = caller!.described as KeyDescription | undefined;
        const { key, account } = described ?? { key: await keys.get(caller!.accountId, caller!.apiKey.id), account: await accounts.get(caller!.accountId) };
        return {
          key: apiKeyView(key),
          owner: { accountId: account.id, email: account.email, name: account.name, isDeveloper: account.isDeveloper },
          plan: { name: account.plan, includesDropshipping: planIncludesDropshipping(account.plan) },
          credits: { available: account.credits },
          assistantLink: assistantLink(base(origin), maskKey(key.keyLast4)),
        };
      },
    }),
  ]);
}
