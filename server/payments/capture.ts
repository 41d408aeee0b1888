import type { OrderPayments } from '../orders';
import type { Logger } from '../platform/logger';
import type { PaymentProvider, PaymentProviders } from './providers';

/** What the provider answered a capture: it took it (the signed event says how it ended), or it refused. */
export type CaptureOutcome = { kind: 'requested'; reference: string | null } | { kind: 'refused'; message: string };

/** The provider could not be reached, or answered that it cannot decide now: ask again later, never record a capture. */
class ProviderUnavailableError extends Error {}

const TIMEOUT_MS = 10_000;

/**
 * The key the provider deduplicates on: one per payment, whichever part asks and however often, so the provider
 * charges a payment once; the order's payments are taken one at a time (a second authorisation only once the first
 * can no longer be charged: OrderPayments.capturable), so the order is charged once too.
 */
const captureKeyOf = (reference: string) => `capture:${reference}`;

const refused = (message: string): CaptureOutcome => ({ kind: 'refused', message });

/**
 * Promise to sell: asks the store's payment provider to capture the payment the order was authorised on (kept when
 * the provider's event authorised it, never a later authorisation), with the store's API key there and an
 * idempotency key per payment, so a request repeated after a crash or a lost answer is
 * answered from the provider's record and charges once. It records that it asked (or the provider's refusal); the
 * payment becomes paid only on the provider's signed event. An answer that says nothing (no connection, a time-out,
 * 408, 429, 5xx) is thrown as ProviderUnavailableError: the dispatch job asks again after a backoff.
 */
export class ShopperCaptures {
  constructor(
    private readonly providers: PaymentProviders,
    private readonly payments: OrderPayments,
    /** Where each provider's API answers ('' when this service has none configured). */
    private readonly apiBaseOf: (provider: PaymentProvider) => string,
    private readonly log: Logger,
  ) {}

  async capture(storeId: string, orderId: string): Promise<CaptureOutcome> {
    const payment = await this.payments.capturable(storeId, orderId);
    if (!payment) return refused('The store order is gone.');
    // The provider already said it is paid (a signed event): nothing to ask.
    if (payment.status === 'paid') return this.recorded(storeId, orderId, 'captureRequested', payment.reference);
    if (!payment.reference) return this.recorded(storeId, orderId, 'captureFailed', null, 'The payment provider reported no authorised payment to capture.');
    const settings = await this.providers.apiKeyOf(storeId);
    if (!settings)
      return this.recorded(
        storeId,
        orderId,
        'captureFailed',
        payment.reference,
        'The store gave no API key for its payment provider, so the shopper cannot be charged: set it (PUT /api/stores/:storeId/payment-provider), then retry.',
      );
    const base = this.apiBaseOf(settings.provider);
    if (!base)
      return this.recorded(
        storeId,
        orderId,
        'captureFailed',
        payment.reference,
        `This service has no address for the ${settings.provider} payment provider (SANDBOX_PAYMENTS_URL).`,
      );
    // Recorded before the provider is asked: its signed event can never show in the history before the request.
    await this.payments.recordCapture(storeId, orderId, 'captureRequested', payment.reference);
    let res: Response;
    try {
      res = await fetch(`${base}/v1/payments/${encodeURIComponent(payment.reference)}/capture`, {
        method: 'POST',
        headers: { authorization: `Bearer ${settings.apiKey}`, 'idempotency-key': captureKeyOf(payment.reference), accept: 'application/json' },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new ProviderUnavailableError(`The payment provider could not be reached (${err instanceof Error ? err.name : 'error'}).`);
    }
    const body = (await res.json().catch(() => null)) as { error?: { code?: unknown; message?: unknown } } | null;
    const code = typeof body?.error?.code === 'string' ? body.error.code : null;
    this.log.info({ storeId, orderId, status: res.status, code }, 'capture asked of the payment provider');
    if (res.ok || code === 'alreadyCaptured') return { kind: 'requested', reference: payment.reference };
    if (res.status >= 500 || res.status === 408 || res.status === 429)
      throw new ProviderUnavailableError(`The payment provider answered ${res.status}; asked again later.`);
    const said = typeof body?.error?.message === 'string' ? body.error.message.slice(0, 300) : `status ${res.status}`;
    const why =
      res.status === 401 || res.status === 403
        ? `The payment provider refused the store's API key (${said}).`
        : `The payment provider refused to charge the shopper: ${said}`;
    return this.recorded(storeId, orderId, 'captureFailed', payment.reference, why);
  }

  private async recorded(
    storeId: string,
    orderId: string,
    kind: 'captureRequested' | 'captureFailed',
    reference: string | null,
    message = '',
  ): Promise<CaptureOutcome> {
    await this.payments.recordCapture(storeId, orderId, kind, reference);
    return kind === 'captureRequested' ? { kind: 'requested', reference } : refused(message);
  }
}
