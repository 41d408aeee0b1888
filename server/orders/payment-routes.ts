import { actorOf } from '../identity/permissions';
import { byCaller, defineRoutes, RequestContext, route } from '../platform/http/route';
import { minorUnits, object, params } from '../platform/http/schemas';
import { PAYMENT_ATTENTION_REASONS, type StoreOrder } from './types';
import { orderParams, orderSchemaWith } from './schemas';
import type { OrderPayments } from './payments';

const BASE = '/api/store-orders';
const TAG = 'Store orders';
type Ctx = RequestContext<{ storeId: string }, unknown, unknown>;

/** A store order's payment as a person records it: marked paid, its attention acknowledged (the provider's events come through server/payments). */
export function storeOrderPaymentRoutes(
  payments: OrderPayments,
  load: (ctx: RequestContext<{ storeId: string; orderId: string }, unknown, unknown>) => Promise<StoreOrder>,
  one: (ctx: Ctx, o: StoreOrder) => Promise<unknown>,
  orderSchema: ReturnType<typeof orderSchemaWith>,
) {
  return defineRoutes([
    route({
      operationId: 'markStoreOrderPaid',
      method: 'post',
      path: `${BASE}/:storeId/:orderId/mark-paid`,
      idempotent: true,
      summary: "Mark the order paid by hand (cash, bank transfer): confirms it; recorded as manual, not as the payment provider's word",
      description:
        "The shopper's `paymentStatus` moves only on the payment provider's signed notifications (POST /api/payment-notifications/:storeId). A manual mark confirms the order and shows in its payment history with who made it, but does not count as provider-confirmed for automatic supplier payment: that still needs the connection's allowUnpaidOrders (orders without online payment) or payNow. 409 when the provider already reported the order paid or refunded; marking twice changes nothing.",
      ...byCaller(TAG, 'orders.manage', false),
      params: orderParams,
      body: object({ reference: { type: 'string', maxLength: 200, description: 'A receipt or transfer reference' }, amountMinor: minorUnits }),
      response: { status: 200, schema: orderSchema },
      async handler(ctx) {
        await payments.markPaid(await load(ctx), ctx.body ?? {}, actorOf(ctx.caller!));
        return one(ctx, await load(ctx));
      },
    }),
    route({
      operationId: 'acknowledgeStoreOrderPaymentAttention',
      method: 'post',
      path: `${BASE}/:storeId/:orderId/payment-attention/acknowledge`,
      summary: "A person has dealt with the order's payment needing attention: clears paymentAttention, keeping the note and who in its payment history",
      description:
        "`reason` names the attention acknowledged (the order's `paymentAttention.reason` as the person saw it): 409 `attentionChanged` when the order's reason is another now (a new one arrived meanwhile: it is not cleared under a note about the old one); 409 `noPaymentAttention` when the order's payment needs no attention. The order still needs attention afterwards if a part does.",
      ...byCaller(TAG, 'payments.manage', false),
      params: orderParams,
      body: object(
        {
          reason: { enum: [...PAYMENT_ATTENTION_REASONS], description: 'The attention acknowledged, as the order showed it' },
          note: {
            type: 'string',
            minLength: 1,
            maxLength: 1000,
            pattern: '\\S',
            description: 'What was decided (for example "refunded the shopper; supplier order cancelled")',
          },
        },
        ['reason', 'note'],
      ),
      response: { status: 200, schema: orderSchema },
      async handler(ctx) {
        await payments.acknowledgeAttention(await load(ctx), ctx.body.reason, ctx.body.note, actorOf(ctx.caller!));
        return one(ctx, await load(ctx));
      },
    }),
  ]);
}
