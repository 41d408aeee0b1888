import { dateTime, nullableDateTime, object, uuid } from '../platform/http/schemas';
import { ALL_TYPES, DISABLED_CODES, EVENT_TYPES, TEST_EVENT_TYPE } from './types';
import type { Delivery, Subscription } from './types';

const typeList = Object.entries(EVENT_TYPES)
  .map(([t, what]) => `\`${t}\`: ${what}`)
  .join(' ');

export const eventTypes = {
  type: 'array',
  minItems: 1,
  maxItems: 50,
  uniqueItems: true,
  items: { enum: [...Object.keys(EVENT_TYPES), ALL_TYPES] },
  description: `The event types to send, or \`${ALL_TYPES}\` for all (types added later included). ${typeList}`,
} as const;

export const targetUrl = {
  type: 'string',
  minLength: 8,
  maxLength: 2000,
  format: 'uri',
  description: 'Where events are POSTed: an http(s) address on the public internet',
} as const;

export const subscriptionSchema = object(
  {
    id: uuid,
    storeId: uuid,
    url: { type: 'string' },
    description: { type: ['string', 'null'] },
    eventTypes: { type: 'array', items: { type: 'string' } },
    enabled: { type: 'boolean' },
    disabledReason: {
      oneOf: [object({ code: { enum: [...DISABLED_CODES] }, message: { type: 'string' }, at: dateTime }, ['code', 'message', 'at']), { type: 'null' }],
      description: 'Why the subscription is switched off (null while it is on)',
    },
    lastSuccessAt: nullableDateTime,
    owner: object(
      { accountId: uuid, keyId: { type: ['string', 'null'], description: 'The key it acts with (null: a session in the console)' } },
      ['accountId', 'keyId'],
      { description: 'On whose access deliveries are rendered: whoever created it, or last changed its url or secret' },
    ),
    secret: { type: 'string', description: 'The signing secret (`whsec_…`): only in the answers of create and rotate-secret' },
    createdAt: dateTime,
    updatedAt: dateTime,
  },
  ['id', 'storeId', 'url', 'description', 'eventTypes', 'enabled', 'disabledReason', 'lastSuccessAt', 'owner', 'createdAt', 'updatedAt'],
);

export const deliverySchema = object(
  {
    id: uuid,
    eventId: { type: 'string', description: "The event's id: the `webhook-id` header of every attempt" },
    eventType: { type: 'string', description: `An event type, or \`${TEST_EVENT_TYPE}\`` },
    status: { enum: ['pending', 'delivered', 'failed'] },
    attempts: { type: 'integer', minimum: 0 },
    responseStatus: { type: ['integer', 'null'], description: 'The HTTP status of the last answer (null: no answer)' },
    lastError: { type: ['string', 'null'] },
    nextAttemptAt: nullableDateTime,
    lastAttemptAt: nullableDateTime,
    deliveredAt: nullableDateTime,
    createdAt: dateTime,
  },
  ['id', 'eventId', 'eventType', 'status', 'attempts', 'responseStatus', 'lastError', 'nextAttemptAt', 'lastAttemptAt', 'deliveredAt', 'createdAt'],
);

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function subscriptionView(s: Subscription, secret?: string) {
  return {
    id: s.id,
    storeId: s.storeId,
    url: s.url,
    description: s.description,
    eventTypes: s.eventTypes,
    enabled: s.enabled,
    disabledReason: s.disabledReason,
    lastSuccessAt: iso(s.lastSuccessAt),
    owner: { accountId: s.ownerAccountId, keyId: s.ownerKeyId },
    ...(secret ? { secret } : {}),
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

export function deliveryView(d: Delivery) {
  return {
    id: d.id,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attempts,
    responseStatus: d.responseStatus,
    lastError: d.lastError,
    nextAttemptAt: iso(d.nextAttemptAt),
    lastAttemptAt: iso(d.lastAttemptAt),
    deliveredAt: iso(d.deliveredAt),
    createdAt: d.createdAt.toISOString(),
  };
}
