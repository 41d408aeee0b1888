/**
 * Shopper payments as they really arrive: from the sandbox payment provider (its own HTTP server), signed with the
 * store's secret, at the store's payment notification address. A test pays, then waits until the provider saw
 * the service accept the event, never a fixed sleep.
 */
import { RunningSandboxPayments, startSandboxPayments } from '../../server/sandboxes/payment-provider';
import { eventually, seen, Service } from './harness';

export type PaymentKind = 'authorised' | 'paid' | 'failed' | 'refunded';

export interface PaymentSandbox extends RunningSandboxPayments {
  /** Calls the provider's merchant API; answers the status and body. */
  v1<T = any>(apiKey: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** Calls the provider's control API (faults, held deliveries, its own records of an order's payments). */
  control<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  /** The provider's own records of an order's payments: status, captures made, capture requests answered. */
  paymentsOf(orderId: string): Promise<ProviderPayment[]>;
  /** Waits until the provider's delivery log shows the event answered 2xx; answers the event as the log has it. */
  delivered(apiKey: string, eventId: string, timeoutMs?: number): Promise<{ id: string; delivered: boolean; attempts: Array<{ status: number | null }> }>;
}

export interface ProviderPayment {
  id: string;
  orderId: string;
  status: string;
  captures: Array<{ at: string; idempotencyKey: string | null; amountMinor: number }>;
  captureRequests: Array<{ at: string; idempotencyKey: string | null; status: number; replayed: boolean }>;
}

export async function startPaymentSandbox(opts: { retryDelaysMs?: number[] } = {}): Promise<PaymentSandbox> {
  process.env.SANDBOX_LOG_LEVEL ??= 'silent';
  const running = await startSandboxPayments({ port: 0, control: true, retryDelaysMs: opts.retryDelaysMs ?? [200, 400, 800] });
  const v1 = async (apiKey: string, method: string, p: string, body?: unknown) => {
    const res = await fetch(`${running.baseUrl}/v1${p}`, {
      method,
      headers: { Authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const control = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${running.baseUrl}/control${p}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`payment provider control ${method} ${p}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  return {
    ...running,
    close: () => running.close(),
    v1,
    control,
    paymentsOf: async (orderId) => (await control('GET', `/payments?orderId=${orderId}`)).items,
    delivered: (apiKey, eventId, timeoutMs = 20000) =>
      eventually(
        async () => {
          const e = (await v1(apiKey, 'GET', `/events/${eventId}`)).body;
          return e?.delivered ? e : undefined;
        },
        timeoutMs,
        `delivery of payment event ${eventId}`,
      ),
  };
}

export interface StorePayments {
  merchantId: string;
  apiKey: string;
  signingSecret: string;
  /**
   * The shopper's payment for the order moves at the provider (authorised, paid: a capture of an authorisation or a
   * new payment, failed, refunded); answers once the service accepted the event.
   */
  pay(orderId: string, kind: PaymentKind): Promise<{ eventId: string; paymentId: string }>;
}

/**
 * A merchant account at the provider for the store, its notification address there, and the secret in the service;
 * with `apiKey` (the default) also the merchant's API key, which the service needs to capture promise-to-sell payments.
 */
export async function connectPayments(
  svc: Service,
  pay: PaymentSandbox,
  storeId: string,
  key: string,
  opts: { apiKey?: boolean } = {},
): Promise<StorePayments> {
  const merchant = (await fetch(`${pay.baseUrl}/v1/merchants`, { method: 'POST' }).then((r) => r.json())) as { merchantId: string; apiKey: string };
  seen.secrets.add(merchant.apiKey);
  const address = await pay.v1(merchant.apiKey, 'PUT', '/notification-address', { url: `${svc.baseUrl}/api/payment-notifications/${storeId}` });
  const signingSecret = address.body.signingSecret as string;
  seen.secrets.add(signingSecret);
  const body = {
    provider: 'sandbox',
    signingSecret,
    checkoutUrl: `${pay.baseUrl}/checkout?merchant=${merchant.merchantId}`,
    ...(opts.apiKey === false ? {} : { apiKey: merchant.apiKey }),
  };
  const set = await svc.call('PUT', `/api/stores/${storeId}/payment-provider`, { key, body });
  if (set.status !== 200) throw new Error(`payment provider not set: ${set.text}`);
  const payments = new Map<string, { id: string; status: string }>();
  return {
    ...merchant,
    signingSecret,
    async pay(orderId, kind) {
      const order = (await svc.call('GET', `/api/store-orders/${storeId}/${orderId}`, { key })).body.result;
      const current = payments.get(orderId);
      let res;
      if (kind === 'refunded') res = await pay.v1(merchant.apiKey, 'POST', `/payments/${current?.id}/refund`);
      else if (kind === 'failed' && (current?.status === 'authorised' || current?.status === 'paid'))
        res = await pay.v1(merchant.apiKey, 'POST', `/payments/${current.id}/fail`);
      else if (current?.status === 'authorised' && kind === 'paid') res = await pay.v1(merchant.apiKey, 'POST', `/payments/${current.id}/capture`);
      else
        res = await pay.v1(merchant.apiKey, 'POST', '/payments', {
          orderId,
          amountMinor: order.totalMinor,
          currency: order.currency,
          capture: kind !== 'authorised',
          decline: kind === 'failed',
        });
      if (res.status >= 300) throw new Error(`the provider refused ${kind}: ${JSON.stringify(res.body)}`);
      payments.set(orderId, { id: res.body.id, status: kind });
      await pay.delivered(merchant.apiKey, res.body.eventId);
      return { eventId: res.body.eventId, paymentId: res.body.id };
    },
  };
}

/** Payments per store, connected on first use: `(shop, orderId, kind)`, for tests with many shops. */
export function shopperPayments(svc: Service, pay: PaymentSandbox) {
  const byStore = new Map<string, Promise<StorePayments>>();
  return async (shop: { storeId: string; owner: { key: string } }, orderId: string, kind: PaymentKind) => {
    if (!byStore.has(shop.storeId)) byStore.set(shop.storeId, connectPayments(svc, pay, shop.storeId, shop.owner.key));
    return (await byStore.get(shop.storeId)!).pay(orderId, kind);
  };
}
