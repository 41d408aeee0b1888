/** The fake Printful's state: accounts and stores, products, orders moving on a clock, faults, the call limit. */
import { randomBytes } from 'node:crypto';
import { CatalogueProduct, CatalogueVariant, seedCatalogue, SyncProduct, SyncVariant } from './catalogue';

/** A refusal in Printful's shape (4xx: `{code, result, error{reason, message}}`; 5xx: problem details). */
export class PfFail extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly reason = 'BadRequest',
    readonly apiCode?: string,
  ) {
    super(message);
  }
}

export interface Account {
  token: string;
  /** A store-level token is bound to its one store; an account-level one names the store in X-PF-Store-Id. */
  accountLevel: boolean;
  storeIds: number[];
  window: { startedAt: number; used: number };
}

export interface Shipment {
  id: number;
  carrier: string;
  service: string;
  tracking_number: string;
  tracking_url: string;
  created: number;
  ship_date: string;
  shipped_at: number;
  reshipment: boolean;
  items: Array<{ item_id: number; quantity: number }>;
}

/** What v2 adds about a package (`GET /v2/orders/{id}/shipments`): returned to Printful, delivered. */
export interface PackageState {
  shipment_status: 'shipped' | 'returned';
  delivered_at: number | null;
}

/** One webhook as Printful posts it (v1): `{type, created, retries, store, data}`; `retries` is set per delivery. */
export interface WebhookEvent {
  url: string;
  type: string;
  created: number;
  store: number;
  data: Record<string, unknown>;
}

export interface FakeOrder {
  id: number;
  storeId: number;
  external_id: string;
  status: string;
  shipping: string;
  shipping_service_name: string;
  recipient: Record<string, unknown>;
  items: Array<{ id: number; sync_variant_id: number; variant_id: number; quantity: number; price: string; name: string }>;
  /** Cents, USD: items and shipping; null while Printful is calculating (costsReadyAt). */
  subtotalCents: number;
  shippingCents: number;
  costsReadyAt: number | null;
  shipments: Shipment[];
  /** By shipment id: what v2 says of each package. */
  packages: Map<number, PackageState>;
  created: number;
  updated: number;
  confirmedAt: number | null;
  /** How often it was confirmed and cancelled, and every confirm asked for (refused or not): a second is a caller's bug. */
  confirms: number;
  confirmCalls: number;
  cancels: number;
}

export interface FailRule {
  method?: string;
  /** A path prefix, such as `/orders` or `/shipping/rates`. */
  path: string;
  status: number;
  message?: string;
  reason?: string;
  apiCode?: string;
  times: number;
}

export interface Faults {
  failNext: FailRule[];
  /** The next N creates (or confirms) are made, but their answer is held and the socket dropped. */
  timeoutAfterCreateNext: number;
  timeoutAfterConfirmNext: number;
  /** The next N orders created have their costs calculated for this long (embroidery, a new design). */
  costsCalculatingNext: number;
  costsCalculatingMs: number;
}

export const noFaults = (): Faults => ({
  failNext: [],
  timeoutAfterCreateNext: 0,
  timeoutAfterConfirmNext: 0,
  costsCalculatingNext: 0,
  costsCalculatingMs: 60_000,
});

export const RATES = [
  { id: 'STANDARD', name: 'Flat Rate (Estimated delivery: 4-8 business days)', cents: 499, perExtraItem: 150, minDeliveryDays: 4, maxDeliveryDays: 8 },
  { id: 'EXPRESS', name: 'Express (Estimated delivery: 1-3 business days)', cents: 1249, perExtraItem: 300, minDeliveryDays: 1, maxDeliveryDays: 3 },
];

export interface StateOptions {
  requestsPerMinute: number;
  /** Confirmed orders move pending -> inprocess -> fulfilled every this many ms; 0: only by the control API. */
  advanceMs: number;
  productCount: number;
}

const unix = (ms: number) => Math.floor(ms / 1000);
export const money = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

export class FakePrintfulState {
  readonly accounts = new Map<string, Account>();
  readonly stores = new Map<number, { id: number; name: string }>();
  readonly orders: FakeOrder[] = [];
  readonly catalogue: CatalogueProduct[];
  readonly products: SyncProduct[];
  faults: Faults = noFaults();
  /** Countries Printful does not ship to (SH-2). */
  readonly unserved = new Set<string>();
  private nextStore = 10_000_001;
  private nextOrder = 90_000_001;
  private nextItem = 1;
  private nextShipment = 500_001;

  /** Each store's one webhook configuration (`POST /webhooks` replaces it). */
  readonly webhooks = new Map<number, { url: string; types: string[]; params: Record<string, unknown> }>();
  /** Every create asked for (`POST /orders`, made or refused), by external id: a second is a caller's bug. */
  readonly createCalls = new Map<string, number>();
  /** Every webhook delivery attempt (index.ts): the answer's status, or 0 when none came. */
  readonly deliveries: Array<{ type: string; url: string; created: number; retries: number; status: number; at: number; body: string }> = [];
  /** Set by index.ts: sends a webhook, with Printful's retries. */
  notify: (e: WebhookEvent) => void = () => undefined;

  constructor(readonly opts: StateOptions) {
    const seeded = seedCatalogue(opts.productCount);
    this.catalogue = seeded.catalogue;
    this.products = seeded.products;
  }

  createAccount(accountLevel: boolean, storeCount: number, name?: string): Account {
    const storeIds = Array.from({ length: Math.max(1, storeCount) }, (_, i) => {
      const id = this.nextStore++;
      this.stores.set(id, { id, name: name ? `${name}${i ? ` ${i + 1}` : ''}` : `Store ${id}` });
      return id;
    });
    const account: Account = { token: randomBytes(20).toString('base64url'), accountLevel, storeIds, window: { startedAt: Date.now(), used: 0 } };
    this.accounts.set(account.token, account);
    return account;
  }

  /** Counts a call; answers what the rate headers say, or refuses past the limit (the counter is restored each minute). */
  admit(account: Account, now = Date.now()): { limit: number; remaining: number; resetSeconds: number; refused: boolean } {
    const limit = this.opts.requestsPerMinute;
    if (now - account.window.startedAt >= 60_000) account.window = { startedAt: now, used: 0 };
    const resetSeconds = Math.max(0, Math.ceil((account.window.startedAt + 60_000 - now) / 1000));
    if (account.window.used >= limit) return { limit, remaining: 0, resetSeconds, refused: true };
    account.window.used++;
    return { limit, remaining: limit - account.window.used, resetSeconds, refused: false };
  }

  takeFailure(method: string, rawPath: string): FailRule | null {
    let path = rawPath;
    try {
      path = decodeURIComponent(rawPath);
    } catch {
      /* matched as sent */
    }
    const rule = this.faults.failNext.find((r) => r.times > 0 && path.startsWith(r.path) && (!r.method || r.method.toUpperCase() === method));
    if (!rule) return null;
    rule.times--;
    this.faults.failNext = this.faults.failNext.filter((r) => r.times > 0);
    return rule;
  }

  syncVariant(id: number): { v: SyncVariant; p: SyncProduct; made: CatalogueVariant } | null {
    for (const p of this.products) for (const v of p.variants) if (v.id === id) return { v, p, made: this.catalogueVariant(v.variant_id)! };
    return null;
  }

  catalogueVariant(id: number): CatalogueVariant | null {
    for (const c of this.catalogue) for (const v of c.variants) if (v.id === id) return v;
    return null;
  }

  /** The order as time has moved it: costs known once calculated; confirmed ones advance on the clock. */
  tick(o: FakeOrder, now = Date.now()): FakeOrder {
    if (o.costsReadyAt !== null && now >= o.costsReadyAt) o.costsReadyAt = null;
    const step = this.opts.advanceMs;
    if (step > 0 && o.confirmedAt !== null) {
      if (o.status === 'pending' && now - o.confirmedAt >= step) this.setStatus(o, 'inprocess', now);
      if (o.status === 'inprocess' && now - o.confirmedAt >= 2 * step) this.ship(o, {}, now);
    }
    return o;
  }

  setStatus(o: FakeOrder, status: string, now = Date.now()): void {
    o.status = status;
    o.updated = unix(now);
  }

  /** Posts `type` to the order's store's webhook address, if it has one for that type. */
  emit(o: FakeOrder, type: string, data: Record<string, unknown>, now = Date.now()): void {
    const hook = this.webhooks.get(o.storeId);
    if (!hook || !hook.types.includes(type)) return;
    this.notify({ url: hook.url, type, created: unix(now), store: o.storeId, data: { ...data, order: this.view(o) } });
  }

  /** A package comes back to Printful (undeliverable, refused): v2 says `returned`; `package_returned` is sent. */
  returnPackage(o: FakeOrder, shipmentId: number, reason: string, now = Date.now()): Shipment {
    const s = o.shipments.find((x) => x.id === shipmentId);
    if (!s) throw new Error(`no shipment ${shipmentId}`);
    o.packages.set(s.id, { ...o.packages.get(s.id)!, shipment_status: 'returned' });
    o.updated = unix(now);
    this.emit(o, 'package_returned', { reason, shipment: s }, now);
    return s;
  }

  /** The carrier delivered a package: v2 says so; v1 only fires `order_updated`. */
  deliverPackage(o: FakeOrder, shipmentId: number, now = Date.now()): void {
    const s = o.shipments.find((x) => x.id === shipmentId);
    if (!s) throw new Error(`no shipment ${shipmentId}`);
    o.packages.set(s.id, { ...o.packages.get(s.id)!, delivered_at: unix(now) });
    o.updated = unix(now);
    this.emit(o, 'order_updated', {}, now);
  }

  /** v2's shipments of an order. */
  v2Shipments(o: FakeOrder): Array<Record<string, unknown>> {
    return o.shipments.map((s) => {
      const p = o.packages.get(s.id)!;
      return {
        id: s.id,
        order_id: o.id,
        order_external_id: o.external_id,
        carrier: s.carrier,
        service: s.service,
        shipment_status: p.shipment_status,
        shipped_at: new Date(s.shipped_at * 1000).toISOString(),
        delivery_status: p.delivered_at !== null ? 'delivered' : p.shipment_status === 'returned' ? 'return_to_sender' : 'in_transit',
        delivered_at: p.delivered_at !== null ? new Date(p.delivered_at * 1000).toISOString() : null,
        is_reshipment: s.reshipment,
        tracking_url: s.tracking_url,
        tracking_events: [
          { triggered_at: new Date(s.shipped_at * 1000).toISOString(), description: 'Shipped' },
          ...(p.delivered_at !== null ? [{ triggered_at: new Date(p.delivered_at * 1000).toISOString(), description: 'Delivered' }] : []),
        ],
        shipment_items: s.items.map((i) => ({ id: i.item_id, order_item_id: i.item_id, quantity: i.quantity })),
      };
    });
  }

  /** One package: the items given (default all not yet shipped); `partial` until every item went. */
  ship(o: FakeOrder, p: { carrier?: string; trackingNumber?: string; itemIds?: number[]; reshipment?: boolean }, now = Date.now()): Shipment {
    const shipped = new Set(o.shipments.flatMap((s) => s.items.map((i) => i.item_id)));
    // A reshipment sends items again (all by default); the order's status stays.
    const ids = p.itemIds ?? (p.reshipment ? o.items.map((i) => i.id) : o.items.map((i) => i.id).filter((id) => !shipped.has(id)));
    const id = this.nextShipment++;
    const tracking = p.trackingNumber ?? `9400${id}${o.id}`.slice(0, 22);
    const s: Shipment = {
      id,
      carrier: p.carrier ?? 'USPS',
      service: 'USPS First Class Mail',
      tracking_number: tracking,
      tracking_url: `https://www.printful.com/tracking/${tracking}`,
      created: unix(now),
      ship_date: new Date(now).toISOString().slice(0, 10),
      shipped_at: unix(now),
      reshipment: p.reshipment === true,
      items: ids.map((item_id) => ({ item_id, quantity: o.items.find((i) => i.id === item_id)?.quantity ?? 1 })),
    };
    o.shipments.push(s);
    o.packages.set(s.id, { shipment_status: 'shipped', delivered_at: null });
    ids.forEach((i) => shipped.add(i));
    if (p.reshipment) o.updated = unix(now);
    else this.setStatus(o, o.items.every((i) => shipped.has(i.id)) ? 'fulfilled' : 'partial', now);
    this.emit(o, 'package_shipped', { shipment: s }, now);
    return s;
  }

  newOrder(
    storeId: number,
    fields: Pick<FakeOrder, 'external_id' | 'shipping' | 'shipping_service_name' | 'recipient' | 'shippingCents'>,
    lines: Array<{ sv: SyncVariant; made: CatalogueVariant; quantity: number }>,
  ): FakeOrder {
    const now = Date.now();
    const calculating = this.faults.costsCalculatingNext > 0;
    if (calculating) this.faults.costsCalculatingNext--;
    const items = lines.map((l) => ({
      id: this.nextItem++,
      sync_variant_id: l.sv.id,
      variant_id: l.made.id,
      quantity: l.quantity,
      price: l.made.price,
      name: l.sv.name,
    }));
    const subtotalCents = lines.reduce((sum, l) => sum + Math.round(Number(l.made.price.replace('.', ''))) * l.quantity, 0);
    const o: FakeOrder = {
      id: this.nextOrder++,
      storeId,
      ...fields,
      status: 'draft',
      items,
      subtotalCents,
      costsReadyAt: calculating ? now + this.faults.costsCalculatingMs : null,
      shipments: [],
      packages: new Map(),
      created: unix(now),
      updated: unix(now),
      confirmedAt: null,
      confirms: 0,
      confirmCalls: 0,
      cancels: 0,
    };
    this.orders.push(o);
    return o;
  }

  /** Printful's v1 Order. */
  view(o: FakeOrder): Record<string, unknown> {
    const calculating = o.costsReadyAt !== null;
    const amount = (cents: number) => (calculating ? null : money(cents));
    return {
      id: o.id,
      external_id: o.external_id,
      store: o.storeId,
      status: o.status,
      shipping: o.shipping,
      shipping_service_name: o.shipping_service_name,
      created: o.created,
      updated: o.updated,
      recipient: o.recipient,
      items: o.items.map((i) => ({
        id: i.id,
        external_id: null,
        variant_id: i.variant_id,
        sync_variant_id: i.sync_variant_id,
        quantity: i.quantity,
        price: i.price,
        retail_price: null,
        name: i.name,
      })),
      costs: {
        currency: 'USD',
        subtotal: amount(o.subtotalCents),
        discount: amount(0),
        shipping: amount(o.shippingCents),
        digitization: amount(0),
        additional_fee: amount(0),
        fulfillment_fee: amount(0),
        retail_delivery_fee: amount(0),
        tax: amount(0),
        vat: amount(0),
        total: amount(o.subtotalCents + o.shippingCents),
        calculation_status: calculating ? 'calculating' : 'done',
      },
      retail_costs: { currency: 'USD', subtotal: null, discount: null, shipping: null, tax: null, vat: null, total: null },
      shipments: o.shipments,
      gift: null,
      packing_slip: null,
    };
  }
}
