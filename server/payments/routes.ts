import { actorOf, ownRecordsKeyId } from '../identity/permissions';
import type { OrderService } from '../orders';
import { ApiError, databaseUnavailable } from '../platform/errors';
import { byCaller, defineRoutes, Reply, route } from '../platform/http/route';
import { currency, dateTime, minorUnits, object, params, uuid } from '../platform/http/schemas';
import type { ShopperRefunds } from './refunds';
import { PAYMENT_PROVIDERS, type PaymentProviders } from './providers';
import { PAYMENT_NOTIFICATION_REFUSED, providerSchema } from './schemas';
import { PAYMENT_EVENT_TYPES, type PaymentNotifications } from './service';

const TAG = 'Payments';
export function paymentRoutes(
  providers: PaymentProviders,
  notifications: PaymentNotifications,
  publicBaseUrl: () => string,
  refunds: ShopperRefunds,
  orders: OrderService,
) {
  const base = (origin: string) => publicBaseUrl() || origin;
  return defineRoutes([
    route({
      operationId: 'receivePaymentNotification',
      method: 'post',
      path: '/api/payment-notifications/:storeId',
      summary:
        "The store's payment provider reports a shopper payment (authorised, paid, captured, capture failed, failed, refunded, disputed), signed with the store's secret",
      description:
        "Standard Webhooks headers (`webhook-id`, `webhook-timestamp` within 5 minutes, `webhook-signature` over the raw body); the body is `{ type, timestamp, data: { orderId, paymentId, amountMinor, currency, version } }` (`timestamp`: when the change happened at the provider, required; `version`: the payment's version there) with `type` one of " +
        Object.keys(PAYMENT_EVENT_TYPES)
          .map((t) => `\`${t}\``)
          .join(', ') +
        ". Only these events move an order's `paymentStatus`; events apply in the provider's order (`timestamp`, and `version` within one payment): one that comes before an event already applied is recorded as stale and moves nothing; a failure or refund after the order (or, under promise to sell, the supplier) was paid also sets `paymentAttention`. An event id already recorded is acknowledged and changes nothing. Every refusal answers 400 with the same body; 503 when the service cannot decide (the provider should send again).",
      tag: TAG,
      auth: 'none',
      readOnly: false,
      rawBody: true,
      refusal: PAYMENT_NOTIFICATION_REFUSED,
      params: object({ storeId: { type: 'string', maxLength: 100 } }, ['storeId']),
      response: { status: 200, schema: object({ received: { const: true } }, ['received']), raw: true },
      extraResponses: [[503, { description: 'The service cannot decide now; send again later' }]],
      // `rc.log` is read only when needed: the request's child logger is made on first read.
      async handler(rc) {
        let outcome: 'accepted' | 'refused';
        try {
          outcome = await notifications.receive(rc.params.storeId, rc.rawBody, rc.headers);
        } catch (err) {
          // A database out of reach is logged where the answer is made, once per window.
          if (!databaseUnavailable(err)) rc.log.warn({ err }, 'payment notification could not be decided');
          throw Object.assign(new ApiError(503, 'serviceUnavailable', 'The notification could not be handled now; send it again later.'), { cause: err });
        }
        return outcome === 'accepted' ? new Reply(200, { received: true }, true) : new Reply(400, PAYMENT_NOTIFICATION_REFUSED, true);
      },
    }),
    route({
      operationId: 'getPaymentProvider',
      method: 'get',
      path: '/api/stores/:storeId/payment-provider',
      ...byCaller(TAG, 'payments.manage', true),
      summary: "The store's payment provider and the notification address to enter there; the signing secret is never answered",
      params: params(['storeId']),
      response: { status: 200, schema: providerSchema },
      handler: async ({ params: p, origin }) => providers.view(p.storeId, base(origin)),
    }),
    route({
      operationId: 'setPaymentProvider',
      method: 'put',
      path: '/api/stores/:storeId/payment-provider',
      ...byCaller(TAG, 'payments.manage', false),
      summary: "Set the store's payment provider, the secret it signs notifications with and the store's API key there (from the provider's dashboard)",
      description: 'Replaces any earlier secret at once: events signed with the old one are refused from then on.',
      params: params(['storeId']),
      body: object(
        {
          provider: { enum: [...PAYMENT_PROVIDERS] },
          signingSecret: { type: 'string', minLength: 1, maxLength: 200, description: '`whsec_` and base64' },
          checkoutUrl: {
            type: 'string',
            format: 'uri',
            pattern: '^https?://',
            maxLength: 500,
            description:
              "Optional: the provider's hosted checkout for this store (the sandbox payment provider's `/checkout?merchant=<id>`), where the console sends a person to pay an order as its shopper",
          },
          apiKey: {
            type: ['string', 'null'],
            minLength: 1,
            maxLength: 500,
            description:
              "The store's API key at the provider, which the service uses to capture promise-to-sell payments when the supplier accepts. Kept sealed, never answered. Omitted: the key stored before is kept; null: removed",
          },
        },
        ['provider', 'signingSecret'],
      ),
      response: { status: 200, schema: providerSchema },
      async handler({ params: p, body, origin }) {
        await providers.configure(p.storeId, body);
        return providers.view(p.storeId, base(origin));
      },
    }),
    route({
      operationId: 'removePaymentProvider',
      method: 'delete',
      path: '/api/stores/:storeId/payment-provider',
      ...byCaller(TAG, 'payments.manage', false),
      summary: "Forget the store's payment provider and its secret: its notifications are refused from now on",
      params: params(['storeId']),
      response: { status: 200, schema: object({ storeId: uuid, removedAt: dateTime }, ['storeId', 'removedAt']) },
      async handler({ params: p }) {
        await providers.remove(p.storeId);
        return { storeId: p.storeId, removedAt: new Date().toISOString() };
      },
    }),
    route({
      operationId: 'refundStoreOrder',
      method: 'post',
      path: '/api/store-orders/:storeId/:orderId/refunds',
      ...byCaller('Store orders', 'payments.manage', false),
      idempotent: true,
      summary: "Refund the shopper, the whole order or part of it, through the store's payment provider",
      description:
        "Asks the provider (with the store's API key there) to refund `amountMinor` of the order's paid payment; recorded in the order's payment history (`refundRequested`, with `reason` and who) before the provider is asked. Answers 202 once the provider took it: the order's `providerPayments`, `amountRefundedMinor`, `paymentStatus` (`partiallyRefunded`, or `refunded` for the whole), its profit and the profit report move when the provider's signed event arrives, with `storeOrder.paymentChanged`. 400 `validationFailed` for another currency than the order's; 409 `nothingToRefund` (no paid payment), `refundExceedsPayment` (more than is left), `providerApiKeyMissing`, `refundRefused` (the provider's refusal, recorded as `refundFailed`); 503 `providerUnavailable` (whether it refunded is unknown: look at the order's payments before asking again).",
      params: params(['storeId', 'orderId']),
      body: object(
        {
          amountMinor: { ...minorUnits, minimum: 1, description: "How much to refund, in minor units of the order's currency" },
          currency: { ...currency, description: "Optional: the order's currency (another is refused)" },
          reason: { type: 'string', minLength: 1, maxLength: 500, pattern: '\\S', description: 'Why (kept in the payment history)' },
        },
        ['amountMinor'],
      ),
      response: {
        status: 202,
        schema: object(
          {
            orderId: uuid,
            paymentReference: { type: 'string' },
            amountMinor: minorUnits,
            currency,
            reason: { type: ['string', 'null'] },
            status: { const: 'requested' },
            requestedAt: dateTime,
          },
          ['orderId', 'paymentReference', 'amountMinor', 'currency', 'reason', 'status', 'requestedAt'],
        ),
      },
      async handler(ctx) {
        const order = await orders.get(ctx.params.storeId, ctx.params.orderId, ownRecordsKeyId(ctx.caller));
        // The caller's key names the provider's refund too: a retry after a lost answer (or a 503) refunds once.
        return new Reply(202, await refunds.refund(order, ctx.body, actorOf(ctx.caller!), ctx.idempotency.key));
      },
    }),
  ]);
}
