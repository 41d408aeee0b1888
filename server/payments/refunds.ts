import { randomUUID } from 'node:crypto';
import type { Actor } from '../identity/permissions';
import type { OrderPayments, StoreOrder } from '../orders';
import { ApiError, errors } from '../platform/errors';
import type { Logger } from '../platform/logger';
import type { PaymentProvider, PaymentProviders } from './providers';

const TIMEOUT_MS = 10_000;

export interface RefundInput {
  amountMinor: number;
  currency?: string;
  reason?: string;
}

/** A refund the provider took: the order shows it once the provider's signed event arrives. */
export interface RefundAnswer {
  orderId: string;
  paymentReference: string;
  amountMinor: number;
  currency: string;
  reason: string | null;
  status: 'requested';
  requestedAt: string;
}

/**
 * Refunds to the shopper, whole or in part, through the store's payment provider with the store's API key there.
 * The request is recorded in the order's payment history before the provider is asked (`refundRequested`, with who
 * and why), a refusal after (`refundFailed`); the payment, the order's status, its profit and the report's sums move
 * only on the provider's signed event (OrderPayments.recordProviderEvent), whoever made the refund.
 */
export class ShopperRefunds {
  constructor(
    private readonly providers: PaymentProviders,
    private readonly payments: OrderPayments,
    private readonly apiBaseOf: (provider: PaymentProvider) => string,
    private readonly log: Logger,
  ) {}

  /**
   * What a refund would be asked against, every check made before anything is recorded (the order's currency, a paid
   * payment with enough left, the store's API key at the provider): a return checks its refund with it first.
   * `reference`: a refund asked before under a key, asked again against the same payment whatever it shows now (it may
   * show the first ask's refund already: the provider answers the key as the first time, and refunds nothing more).
   */
  async prepare(order: StoreOrder, input: RefundInput, reference: string | null = null) {
    if (input.currency !== undefined && input.currency !== order.currency) {
      throw errors.validationFailed([{ field: 'body/currency', message: `must be the order's currency (${order.currency})` }]);
    }
    const all = (await this.payments.paymentsOf(order.storeId, [order.id])).get(order.id) ?? [];
    const left = (p: { amountMinor: number; refundedMinor: number }) => p.amountMinor - p.refundedMinor;
    const paid = all.filter((p) => (p.status === 'paid' || p.status === 'partiallyRefunded') && p.reference).sort((a, b) => left(b) - left(a));
    const again = reference ? all.find((p) => p.reference === reference) : undefined;
    if (!paid.length && !again)
      throw errors.conflict('nothingToRefund', 'No payment of the order is paid (as the provider reported it): there is nothing to refund.');
    // The standing payment first (the one that keeps the most), so a refund in part never empties a duplicate by chance.
    const payment = again ?? paid.find((p) => left(p) >= input.amountMinor);
    if (!payment)
      throw errors.conflict('refundExceedsPayment', `At most ${left(paid[0])} (minor units of ${order.currency}) is left to refund on the order's payment.`);
    const settings = await this.providers.apiKeyOf(order.storeId);
    if (!settings)
      throw errors.conflict(
        'providerApiKeyMissing',
        'The store gave no API key for its payment provider: set it (PUT /api/stores/:storeId/payment-provider), then refund.',
      );
    const base = this.apiBaseOf(settings.provider);
    if (!base)
      throw errors.conflict('providerApiKeyMissing', `This service has no address for the ${settings.provider} payment provider (SANDBOX_PAYMENTS_URL).`);
    return { payment: payment as typeof payment & { reference: string }, apiKey: settings.apiKey, base };
  }

  /**
   * `requestKey`: the caller's idempotency key (its digest), or a return's own key, so that a retry of this refund
   * asks the provider under the same key: it refunds once.
   */
  async refund(order: StoreOrder, input: RefundInput, actor: Actor, requestKey: string | null = null, reference: string | null = null): Promise<RefundAnswer> {
    const { payment, apiKey, base } = await this.prepare(order, input, reference);
    const asked = { reference: payment.reference, amountMinor: input.amountMinor, note: input.reason ?? null };
    await this.payments.recordRefund(order, 'refundRequested', asked, actor);
    let res: Response;
    try {
      res = await fetch(`${base}/v1/payments/${encodeURIComponent(payment.reference)}/refund`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${apiKey}`,
          'idempotency-key': `refund:${requestKey ?? randomUUID()}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify({ amountMinor: input.amountMinor }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new ApiError(
        503,
        'providerUnavailable',
        `The payment provider could not be reached (${err instanceof Error ? err.name : 'error'}): look at the order's payments before asking again.`,
      );
    }
    const body = (await res.json().catch(() => null)) as { error?: { code?: unknown; message?: unknown } } | null;
    this.log.info({ storeId: order.storeId, orderId: order.id, status: res.status }, 'refund asked of the payment provider');
    if (res.ok)
      return {
        orderId: order.id,
        paymentReference: payment.reference,
        amountMinor: input.amountMinor,
        currency: order.currency,
        reason: input.reason ?? null,
        status: 'requested',
        requestedAt: new Date().toISOString(),
      };
    if (res.status >= 500 || res.status === 408 || res.status === 429)
      throw new ApiError(503, 'providerUnavailable', `The payment provider answered ${res.status}: look at the order's payments before asking again.`);
    const said = typeof body?.error?.message === 'string' ? body.error.message.slice(0, 300) : `status ${res.status}`;
    await this.payments.recordRefund(order, 'refundFailed', { ...asked, note: said }, actor);
    throw errors.conflict('refundRefused', `The payment provider refused the refund: ${said}`);
  }
}
