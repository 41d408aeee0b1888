import type { AccountService } from './accounts';
import { apiKeyView, ApiKeyService, maskKey } from './api-keys';
import { assistantLink } from './assistant-link';
import { PLANS, RECORD_SCOPES } from './types';
import { apiKeySchema, assistantLinkSchema, keyName } from './schemas';
import { planIncludesDropshipping } from './permissions';
import type { KeyDescription } from './gate';
import { errors } from '../platform/errors';
import { defineRoutes, route } from '../platform/http/route';
import { object, params, uuid } from '../platform/http/schemas';

/** The account's API keys (a session only: keys cannot manage keys), and the key a call is made with. */
export function keyRoutes(accounts: AccountService, keys: ApiKeyService, base: (origin: string) => string) {
  return defineRoutes([
    route({
      operationId: 'createApiKey',
      method: 'post',
      path: '/api/api-keys',
      tag: 'API keys',
      auth: 'session',
      readOnly: false,
      idempotent: true,
      summary: 'Create an API key (Developer accounts; signed-in users only). The full key is in the answer.',
      body: object({ name: keyName, recordScope: { enum: [...RECORD_SCOPES], default: 'own' } }, ['name']),
      response: {
        status: 201,
        schema: object({ key: { type: 'string' }, apiKey: apiKeySchema, assistantLink: assistantLinkSchema }, ['key', 'apiKey', 'assistantLink']),
      },
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
      tag: 'API keys',
      auth: 'session',
      readOnly: true,
      summary: "The account's API keys, masked (signed-in users only)",
      response: {
        status: 200,
        schema: {
          type: 'array',
          items: {
            ...apiKeySchema,
            properties: { ...(apiKeySchema.properties as object), assistantLink: assistantLinkSchema },
            required: [...apiKeySchema.required, 'assistantLink'],
          },
        },
      },
      handler: async ({ caller, origin }) =>
        (await keys.list(caller!.accountId)).map((k) => ({ ...apiKeyView(k), assistantLink: assistantLink(base(origin), maskKey(k.keyLast4)) })),
    }),
    route({
      operationId: 'copyApiKey',
      method: 'get',
      path: '/api/api-keys/:keyId/secret',
      tag: 'API keys',
      auth: 'session',
      readOnly: true,
      summary: 'The full key again, to copy (signed-in users only)',
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
      tag: 'API keys',
      auth: 'session',
      readOnly: false,
      summary: 'Rename a key or change its record scope (signed-in users only)',
      params: params(['keyId']),
      body: object({ name: keyName, recordScope: { enum: [...RECORD_SCOPES] } }, [], { minProperties: 1 }),
      response: { status: 200, schema: apiKeySchema },
      handler: async ({ caller, params: p, body }) => apiKeyView(await keys.update(caller!.accountId, p.keyId, body)),
    }),
    route({
      operationId: 'revokeApiKey',
      method: 'delete',
      path: '/api/api-keys/:keyId',
      tag: 'API keys',
      auth: 'session',
      readOnly: false,
      summary: 'Revoke a key; immediate and permanent (signed-in users only)',
      params: params(['keyId']),
      response: { status: 200, schema: apiKeySchema },
      handler: async ({ caller, params: p }) => apiKeyView(await keys.revoke(caller!.accountId, p.keyId)),
    }),
    route({
      operationId: 'getCurrentApiKey',
      method: 'get',
      path: '/api/api-key/current',
      tag: 'API keys',
      auth: 'caller',
      readOnly: true,
      summary: 'Describes the calling key: the key, its owner, the plan and the credits the account can spend',
      response: {
        status: 200,
        schema: object(
          {
            key: apiKeySchema,
            owner: object({ accountId: uuid, email: { type: 'string' }, name: { type: 'string' }, isDeveloper: { type: 'boolean' } }, [
              'accountId',
              'email',
              'name',
              'isDeveloper',
            ]),
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
