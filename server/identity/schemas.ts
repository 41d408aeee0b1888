import { dateTime, nullableDateTime, object, uuid } from '../platform/http/schemas';
import { PLANS, RECORD_SCOPES } from './types';

// The identity domain's schemas: what its routes take and answer.

export const accountSchema = object(
  {
    id: uuid,
    email: { type: 'string' },
    name: { type: 'string' },
    plan: { enum: [...PLANS] },
    includesDropshipping: { type: 'boolean' },
    isDeveloper: { type: 'boolean' },
    credits: { type: 'integer' },
    createdAt: dateTime,
  },
  ['id', 'email', 'name', 'plan', 'includesDropshipping', 'isDeveloper', 'credits', 'createdAt'],
);

export const apiKeySchema = object(
  {
    id: uuid,
    name: { type: 'string' },
    maskedKey: { type: 'string' },
    recordScope: { enum: [...RECORD_SCOPES], description: '`own`: only records made with this key; `account`: all of the account' },
    lastUsedAt: nullableDateTime,
    revoked: { type: 'boolean' },
    revokedAt: nullableDateTime,
    createdAt: dateTime,
  },
  ['id', 'name', 'maskedKey', 'recordScope', 'lastUsedAt', 'revoked', 'revokedAt', 'createdAt'],
);

export const email = { type: 'string', format: 'email', maxLength: 254 } as const;
export const password = { type: 'string', minLength: 10, maxLength: 200 } as const;
export const keyName = { type: 'string', minLength: 1, maxLength: 100 } as const;
export const sessionAnswer = object({ sessionToken: { type: 'string' }, account: accountSchema }, ['sessionToken', 'account']);

export const assistantLinkSchema = object(
  {
    url: { type: 'string', description: 'The MCP (Model Context Protocol) endpoint' },
    transport: { const: 'streamable-http' },
    headers: object({ 'X-API-Key': { type: 'string' } }, ['X-API-Key']),
  },
  ['url', 'transport', 'headers'],
  {
    description:
      "The key's assistant (MCP) link: the address and how to pass the key, ready to paste into an assistant's configuration. It uses the key's record scope and stops when the key is revoked.",
  },
);
