import { creatorOf, ownRecordsKeyId } from '../identity/permissions';
import { byCaller, defineRoutes, Reply, type RequestContext, route } from '../platform/http/route';
import { object, pageOf, pageQuery, params } from '../platform/http/schemas';
import { deliverySchema, deliveryView, eventTypes, subscriptionSchema, subscriptionView, targetUrl } from './schemas';
import type { Changer, SubscriptionService } from './subscriptions';

const BASE = '/api/store-suppliers/:storeId/event-subscriptions';
const TAG = 'Event subscriptions';
const one = params(['storeId', 'subscriptionId']);
const description = { type: ['string', 'null'], maxLength: 500 } as const;
const takeOver =
  "Changing its url, or rotating its secret, makes the caller the subscription's owner (whose access renders its data from then on), and needs every permission its data needs (of the store owner's grant: suppliers.view; supplierOrder.*: customers.view; orderPart.* and storeOrder.*: orders.view; importJob.*: suppliers.import; `*`: all of them); a member missing any answers 403 `subscriptionOwnerPermissionsMissing` naming them.";
/** The caller as the owner they would become, with their store permissions now. */
const changerOf = (ctx: RequestContext<unknown, unknown, unknown, unknown>): Changer => {
  const { createdByAccountId, createdByKeyId } = creatorOf(ctx.caller!);
  return { accountId: createdByAccountId, keyId: createdByKeyId, permissions: ctx.store!.permissions };
};
const signing =
  "Every delivery is a POST of `{ id, type, createdAt, storeId, data }` (data: the resource as the API answers it to the subscription's owner) with the Standard Webhooks headers `webhook-id` (the event id, the same on every attempt), `webhook-timestamp` and `webhook-signature` (`v1,<base64 HMAC-SHA256 of id.timestamp.body>` under the secret). Answer 2xx within a few seconds; anything else is retried with growing delays for about three days.";

export function eventRoutes(subscriptions: SubscriptionService) {
  return defineRoutes([
    route({
      operationId: 'createEventSubscription',
      method: 'post',
      path: BASE,
      ...byCaller(TAG, 'suppliers.manage', false),
      // The subscription and its key commit together: a lost answer is rebuilt from it, never made twice.
      idempotent: {
        async recover(ctx, id) {
          const made = await subscriptions.made(ctx.params.storeId, id);
          return subscriptionView(made.subscription, made.secret);
        },
      },
      summary: "Subscribe an address to the store's events",
      description: `${signing} The answer carries the signing secret; it is shown again only when rotated. Its creator owns it: deliveries are rendered with the owner's access as it is when each goes out, and stop (the subscription switched off, with the reason) once the owner leaves the store or the owner's key is revoked. A store has at most ${subscriptions.limits.perStore} subscriptions (409 \`subscriptionLimitReached\` beyond).`,
      params: params(['storeId']),
      body: object({ url: targetUrl, eventTypes, description }, ['url', 'eventTypes']),
      response: { status: 201, schema: subscriptionSchema },
      countLimit: { limit: subscriptions.limits.perStore, per: 'store', of: 'event subscriptions', code: 'subscriptionLimitReached' },
      async handler(ctx) {
        const made = await subscriptions.create(ctx.params.storeId, changerOf(ctx), ctx.body, (tx, id) => ctx.idempotency.made(tx, id));
        return subscriptionView(made.subscription, made.secret);
      },
    }),
    route({
      operationId: 'listEventSubscriptions',
      method: 'get',
      path: BASE,
      ...byCaller(TAG, 'suppliers.view', true),
      summary: "The store's event subscriptions, newest first",
      params: params(['storeId']),
      query: object({ ...pageQuery }),
      response: { status: 200, schema: pageOf(subscriptionSchema) },
      async handler(ctx) {
        const page = await subscriptions.list(ctx.params.storeId, ownRecordsKeyId(ctx.caller), ctx.query);
        return { ...page, items: page.items.map((s) => subscriptionView(s)) };
      },
    }),
    route({
      operationId: 'getEventSubscription',
      method: 'get',
      path: `${BASE}/:subscriptionId`,
      ...byCaller(TAG, 'suppliers.view', true),
      summary: 'One event subscription',
      params: one,
      response: { status: 200, schema: subscriptionSchema },
      handler: async (ctx) => subscriptionView(await subscriptions.get(ctx.params.storeId, ctx.params.subscriptionId, ownRecordsKeyId(ctx.caller))),
    }),
    route({
      operationId: 'updateEventSubscription',
      method: 'patch',
      path: `${BASE}/:subscriptionId`,
      ...byCaller(TAG, 'suppliers.manage', false),
      summary: 'Change the address, event types or description, or switch the subscription on or off',
      description: `${takeOver} The event types, description and switch may be changed by any member with suppliers.manage: deliveries still go to the owner's address, rendered for the owner. Switching a subscription on clears the reason it was switched off and gives its waiting deliveries a fresh retry period; with an owner who can no longer act in the store it answers 409 \`subscriptionOwnerAccessEnded\` (take it over first).`,
      params: one,
      body: object({ url: targetUrl, eventTypes, description, enabled: { type: 'boolean' } }, [], { minProperties: 1 }),
      response: { status: 200, schema: subscriptionSchema },
      handler: async (ctx) =>
        subscriptionView(await subscriptions.update(ctx.params.storeId, ctx.params.subscriptionId, ownRecordsKeyId(ctx.caller), changerOf(ctx), ctx.body)),
    }),
    route({
      operationId: 'deleteEventSubscription',
      method: 'delete',
      path: `${BASE}/:subscriptionId`,
      ...byCaller(TAG, 'suppliers.manage', false),
      summary: 'Delete an event subscription and its delivery log',
      params: one,
      response: { status: 204, schema: {} },
      async handler(ctx) {
        await subscriptions.delete(ctx.params.storeId, ctx.params.subscriptionId, ownRecordsKeyId(ctx.caller));
        return new Reply(204, undefined, true);
      },
    }),
    route({
      operationId: 'rotateEventSubscriptionSecret',
      method: 'post',
      path: `${BASE}/:subscriptionId/rotate-secret`,
      ...byCaller(TAG, 'suppliers.manage', false),
      summary: 'Replace the signing secret',
      description: `Answers the new secret. The old one keeps signing beside it (two signatures in webhook-signature) for keepOldSeconds (default a day; 0: not at all). ${takeOver}`,
      params: one,
      body: object({ keepOldSeconds: { type: 'integer', minimum: 0, maximum: 7 * 86400, default: 86400 } }),
      response: { status: 200, schema: subscriptionSchema },
      async handler(ctx) {
        const rotated = await subscriptions.rotate(
          ctx.params.storeId,
          ctx.params.subscriptionId,
          ownRecordsKeyId(ctx.caller),
          changerOf(ctx),
          ctx.body?.keepOldSeconds ?? 86400,
        );
        return subscriptionView(rotated.subscription, rotated.secret);
      },
    }),
    route({
      operationId: 'testEventSubscription',
      method: 'post',
      path: `${BASE}/:subscriptionId/test`,
      ...byCaller(TAG, 'suppliers.manage', false),
      summary: 'Send a subscription.test event to this subscription',
      description: `Answers 202 with its delivery; follow it in the delivery log. ${sendsLimit(subscriptions)}`,
      params: one,
      response: { status: 202, schema: deliverySchema },
      rateLimit: subscriptions.limits.sends,
      handler: async (ctx) =>
        new Reply(202, deliveryView(await subscriptions.test(ctx.params.storeId, ctx.params.subscriptionId, ownRecordsKeyId(ctx.caller)))),
    }),
    route({
      operationId: 'listEventDeliveries',
      method: 'get',
      path: `${BASE}/:subscriptionId/deliveries`,
      ...byCaller(TAG, 'suppliers.view', true),
      summary: "The subscription's deliveries, newest first, with status, attempts and the last answer",
      params: one,
      query: object({ status: { enum: ['pending', 'delivered', 'failed'] }, ...pageQuery }),
      response: { status: 200, schema: pageOf(deliverySchema) },
      async handler(ctx) {
        const page = await subscriptions.deliveries(ctx.params.storeId, ctx.params.subscriptionId, ownRecordsKeyId(ctx.caller), ctx.query);
        return { ...page, items: page.items.map(deliveryView) };
      },
    }),
    route({
      operationId: 'redeliverEvent',
      method: 'post',
      path: `${BASE}/:subscriptionId/deliveries/:deliveryId/redeliver`,
      ...byCaller(TAG, 'suppliers.manage', false),
      summary: "Send a delivery's event again now (same webhook-id)",
      description: sendsLimit(subscriptions),
      params: params(['storeId', 'subscriptionId', 'deliveryId']),
      response: { status: 202, schema: deliverySchema },
      rateLimit: subscriptions.limits.sends,
      handler: async (ctx) =>
        new Reply(
          202,
          deliveryView(await subscriptions.redeliver(ctx.params.storeId, ctx.params.subscriptionId, ctx.params.deliveryId, ownRecordsKeyId(ctx.caller))),
        ),
    }),
  ]);
}

const sendsLimit = (s: SubscriptionService) =>
  `Test and redeliver share one budget per store: ${s.limits.sends.limit} calls in any ${s.limits.sends.windowSeconds} seconds, then 429 \`rateLimited\` with Retry-After.`;
