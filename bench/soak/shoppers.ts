/**
 * Shoppers: store orders made as a storefront makes them, of one to four parts (a sandbox part, a CJ part, an
 * AliExpress part, a Printful part), paid through the sandbox payment provider (promise-to-sell ones only authorised there, and
 * captured by the service once the supplier accepted). The provider then notifies the store, signed.
 */
import { call, sleep } from './api';
import type { Product, SupplierName } from './catalogues';
import type { Suppliers } from './programs';
import type { Store } from './world';

export interface PlacedOrder {
  store: Store;
  orderId: string;
  contractModel: 'standard' | 'promiseToSell';
  totalMinor: number;
  /** The suppliers of its parts. */
  suppliers: SupplierName[];
  paymentId: string | null;
  /** The provider's event for the payment the shopper made (paid, or authorised). */
  eventId: string | null;
  /** Whether the provider's log shows that event answered 2xx by the service. */
  eventDelivered: boolean;
  placedAt: number;
}

const DESTINATION = {
  name: 'Ada Lovelace',
  line1: '12 Analytical Street',
  city: 'Springfield',
  region: 'IL',
  postalCode: '62701',
  country: 'US',
  phone: '+1 555 010 0199',
  email: 'ada@example.test',
};

const pick = <T>(xs: T[], random: () => number): T => xs[Math.floor(random() * xs.length)];

/** Which products an order holds: a promise-to-sell order only sandbox ones; others a mix, at least one part. */
function basket(store: Store, promise: boolean, random: () => number): Product[] {
  const of = (s: SupplierName) => store.products.filter((p) => p.supplier === s);
  if (promise) return [pick(of('sandbox'), random)];
  const chosen: Product[] = [];
  if (random() < 0.7) chosen.push(pick(of('sandbox'), random));
  if (random() < 0.45) chosen.push(pick(of('cj'), random));
  if (random() < 0.3) chosen.push(pick(of('aliexpress'), random));
  if (random() < 0.25 && of('printful').length) chosen.push(pick(of('printful'), random));
  return chosen.length ? chosen : [pick(of('sandbox'), random)];
}

export class Shoppers {
  readonly orders: PlacedOrder[] = [];
  /** Orders whose creation got no answer: they may exist, pending, unpaid; nothing is checked of them. */
  unanswered = 0;
  refused = 0;

  constructor(
    private readonly s: Suppliers,
    private readonly random: () => number,
  ) {}

  /** One shopper's order, and its payment at the provider. Answers the order (null when it was not made). */
  async order(store: Store, onCjPart: (o: PlacedOrder) => void): Promise<PlacedOrder | null> {
    const promise = this.random() < 0.2;
    const items = basket(store, promise, this.random).map((p) => ({
      productId: p.productId,
      variantId: p.variantId,
      quantity: 1 + Math.floor(this.random() * 2),
    }));
    const res = await store.api.call<{ result: { id: string; totalMinor: number; currency: string } }>('POST', `/api/store-orders/${store.storeId}`, {
      key: store.owner.key,
      body: { items, destination: DESTINATION, paymentMethod: 'online', contractModel: promise ? 'promiseToSell' : 'standard' },
    });
    if (res.status === 0) this.unanswered++;
    if (res.status !== 201) {
      if (res.status !== 0) this.refused++;
      return null;
    }
    const suppliers = [...new Set(items.map((i) => store.products.find((p) => p.productId === i.productId)!.supplier))];
    const o: PlacedOrder = {
      store,
      orderId: res.body.result.id,
      contractModel: promise ? 'promiseToSell' : 'standard',
      totalMinor: res.body.result.totalMinor,
      suppliers,
      paymentId: null,
      eventId: null,
      eventDelivered: false,
      placedAt: Date.now(),
    };
    this.orders.push(o);
    // The shopper pays a moment later, at the provider (which is not faulted on this call: it is the shopper's side).
    await sleep(200 + Math.floor(this.random() * 800));
    const paid = await call<{ id: string; eventId: string }>(this.s.payments.baseUrl, 'POST', '/v1/payments', {
      headers: { Authorization: `Bearer ${store.merchant.apiKey}` },
      body: { orderId: o.orderId, amountMinor: o.totalMinor, currency: res.body.result.currency, capture: !promise },
    });
    if (paid.status !== 201) throw new Error(`the payment provider refused a payment: ${paid.status} ${paid.text}`);
    o.paymentId = paid.body.id;
    o.eventId = paid.body.eventId;
    if (suppliers.includes('cj')) onCjPart(o);
    return o;
  }

  /**
   * The sandbox provider sends an event again for 31 s (1, 2, 4, 8, 16 s); a real one keeps trying for days. For the
   * payments the shoppers made, the soak plays the rest of that schedule: an event the provider has stopped trying
   * (its sixth attempt failed, or none for 20 s) is sent again through its resend API. Answers how many it resent.
   */
  async resendUndelivered(): Promise<number> {
    let resent = 0;
    for (const o of this.orders) {
      if (!o.eventId || o.eventDelivered) continue;
      const auth = { Authorization: `Bearer ${o.store.merchant.apiKey}` };
      const e = await call<{ delivered: boolean; attempts: Array<{ at: string }> }>(this.s.payments.baseUrl, 'GET', `/v1/events/${o.eventId}`, {
        headers: auth,
      });
      if (e.status !== 200) continue;
      if (e.body.delivered) {
        o.eventDelivered = true;
        continue;
      }
      const last = e.body.attempts.at(-1);
      if (e.body.attempts.length >= 6 || (last && Date.now() - Date.parse(last.at) > 20000)) {
        await call(this.s.payments.baseUrl, 'POST', `/v1/events/${o.eventId}/resend`, { headers: auth });
        resent++;
      }
    }
    return resent;
  }

  /** Payments whose event the provider has not delivered yet. */
  undelivered(): number {
    return this.orders.filter((o) => o.eventId && !o.eventDelivered).length;
  }
}
