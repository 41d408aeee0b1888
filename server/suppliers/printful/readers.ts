/** Printful's JSON (docs/suppliers/printful.md) in the contract's types; a wrong shape is a ShapeError. */
import type { DeliveryException, SupplierOrderSnapshot, SupplierProduct, SupplierVariant, TrackingEvent } from '../adapter';
import { ISO_COUNTRIES } from '../countries';
import { asObj, Obj, optionalText, ShapeError, text } from '../http';
import { decimalToMinor, MoneyFormatError } from '../money';

/** Printful prints on demand and counts no stock: a variant it makes is offered up to its most per line. */
export const ON_DEMAND_STOCK = 1000;
export const WORLD = [...ISO_COUNTRIES];

type Status = SupplierOrderSnapshot['status'];

/** Every Printful order status in the service's terms, and whether the order was confirmed (paid). */
export const ORDER_STATUS: Record<string, { status: Status; paid: boolean }> = {
  draft: { status: 'created', paid: false },
  // Returned with an error (address, files, a charge that failed): editable again, not paid; a person fixes it.
  failed: { status: 'created', paid: false },
  pending: { status: 'paid', paid: true },
  inreview: { status: 'paid', paid: true },
  inprocess: { status: 'processing', paid: true },
  onhold: { status: 'processing', paid: true },
  // Some packages shipped, others not yet: still being made; the shipped packages' tracking comes along.
  partial: { status: 'processing', paid: true },
  fulfilled: { status: 'shipped', paid: true },
  canceled: { status: 'cancelled', paid: false },
};

export function list(value: unknown, at: string): unknown[] {
  if (!Array.isArray(value)) throw new ShapeError(`${at} is not an array`);
  return value;
}

export function minor(value: unknown, currency: string, at: string): number {
  try {
    return decimalToMinor(value, currency);
  } catch (err) {
    if (err instanceof MoneyFormatError) throw new ShapeError(`${at} is not an amount in ${currency}`);
    throw err;
  }
}

function optionalMinor(value: unknown, currency: string): number | null {
  if (value === null || value === undefined || value === '') return null;
  try {
    return decimalToMinor(value, currency);
  } catch {
    return null;
  }
}

export function currencyOf(o: Obj | null, fallback = 'USD'): string {
  const c = o ? optionalText(o, 'currency') : null;
  return c && /^[A-Z]{3}$/.test(c) ? c : fallback;
}

/** Costs Printful has not finished calculating (v2's calculation_status, or amounts still missing). */
export function costsPending(order: Obj): boolean {
  const costs = order.costs && typeof order.costs === 'object' ? (order.costs as Obj) : null;
  if (!costs) return true;
  if (costs.calculation_status === 'calculating') return true;
  return costs.total === null || costs.total === undefined || costs.total === '';
}

function shippedAtOf(s: Obj): string | null {
  const at = s.shipped_at ?? s.created;
  if (typeof at === 'number' && Number.isFinite(at) && at > 0) return new Date(at * 1000).toISOString();
  if (typeof at === 'string' && Number.isFinite(Date.parse(at))) return new Date(Date.parse(at)).toISOString();
  const day = typeof s.ship_date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(s.ship_date) ? Date.parse(`${s.ship_date}T00:00:00Z`) : NaN;
  return Number.isFinite(day) ? new Date(day).toISOString() : null;
}

/** What API v2 says of each package (`GET /v2/orders/{id}/shipments`): returned to Printful, delivered, its carrier's events. */
export interface ShipmentState {
  returned: boolean;
  delivered: boolean;
  /** `tracking_events` (`triggered_at`, `description`), and an exception its delivery status names. */
  events: TrackingEvent[];
  exception: DeliveryException | null;
}

/** v2's delivery statuses that are a carrier's exception. */
const DELIVERY_EXCEPTIONS: Record<string, DeliveryException> = {
  return_to_sender: 'returnedToSender',
  returned_to_sender: 'returnedToSender',
  failure: 'failedDelivery',
  failed: 'failedDelivery',
  exception: 'failedDelivery',
  customs: 'customsHold',
};

export function readShipmentStates(result: unknown): Map<string, ShipmentState> {
  const out = new Map<string, ShipmentState>();
  list(result, 'shipments').forEach((raw, i) => {
    const s = asObj(raw, `shipments[${i}]`);
    const events = list(s.tracking_events ?? [], `shipments[${i}].tracking_events`).flatMap((e) => {
      const o = asObj(e, `shipments[${i}].tracking_events`);
      const at = typeof o.triggered_at === 'string' ? Date.parse(o.triggered_at) : NaN;
      return Number.isFinite(at) ? [{ at: new Date(at).toISOString(), description: optionalText(o, 'description') ?? '', location: null }] : [];
    });
    const exception = DELIVERY_EXCEPTIONS[String(s.delivery_status ?? '')] ?? null;
    out.set(text(s, 'id', `shipments[${i}]`), { returned: s.shipment_status === 'returned', delivered: s.delivery_status === 'delivered', events, exception });
  });
  return out;
}

/**
 * A Printful order (v1) as a snapshot; the Printful status word is kept as `supplierStatus`. With its packages' v2
 * states: the returned ones, and delivered once every package that was not returned is (v1 never says delivered).
 */
export function readOrder(raw: unknown, at = 'order', states?: Map<string, ShipmentState>): SupplierOrderSnapshot {
  const o = asObj(raw, at);
  const supplierStatus = text(o, 'status', at).toLowerCase();
  const known = ORDER_STATUS[supplierStatus];
  const shipments = list(o.shipments ?? [], `${at}.shipments`).map((s, i) => asObj(s, `${at}.shipments[${i}]`));
  // Archived orders are hidden from Printful's lists; what they carry says where they got to.
  const mapped = known ?? (supplierStatus === 'archived' ? { status: shipments.length ? 'shipped' : 'processing', paid: true } : null);
  if (!mapped) throw new ShapeError(`${at}.status is not a known status`);
  const costsObj = o.costs && typeof o.costs === 'object' ? (o.costs as Obj) : null;
  const currency = currencyOf(costsObj);
  const items = costsObj ? optionalMinor(costsObj.subtotal, currency) : null;
  const shippingMinor = costsObj ? optionalMinor(costsObj.shipping, currency) : null;
  const total = costsObj ? optionalMinor(costsObj.total, currency) : null;
  const costs = items !== null && shippingMinor !== null && total !== null ? { itemsMinor: items, shippingMinor, totalMinor: total, currency } : null;
  // One package per shipment, each with its own tracking: joined as the other adapters join several (", ").
  const tracked = shipments
    .map((s) => ({ carrier: optionalText(s, 'carrier') ?? 'Printful', trackingNumber: optionalText(s, 'tracking_number'), shippedAt: shippedAtOf(s) }))
    .filter((s): s is { carrier: string; trackingNumber: string; shippedAt: string | null } => s.trackingNumber !== null);
  const shipping = tracked.length
    ? {
        carrier: [...new Set(tracked.map((s) => s.carrier))].join(', '),
        trackingNumber: tracked.map((s) => s.trackingNumber).join(', '),
        shippedAt: tracked.find((s) => s.shippedAt)?.shippedAt ?? null,
      }
    : null;
  let status = mapped.status as Status;
  const snapshot: SupplierOrderSnapshot = {
    supplierOrderId: text(o, 'id', at),
    orderNumber: optionalText(o, 'external_id') ?? '',
    supplierStatus,
    status,
    paid: mapped.paid,
    costs,
    shipping,
  };
  if (states) {
    const stateOf = (s: Obj) => states.get(optionalText(s, 'id') ?? '');
    snapshot.returns = shipments
      .filter((s) => stateOf(s)?.returned && optionalText(s, 'tracking_number'))
      .map((s) => ({ carrier: optionalText(s, 'carrier') ?? 'Printful', trackingNumber: optionalText(s, 'tracking_number')! }));
    const kept = shipments.filter((s) => !stateOf(s)?.returned);
    if (status === 'shipped' && kept.length && kept.every((s) => stateOf(s)?.delivered)) status = 'delivered';
    // The kept packages' carrier events, as one journey; an exception of one of them is the parcel's.
    const keptStates = kept.map(stateOf).filter((x): x is ShipmentState => !!x);
    snapshot.tracking = {
      events: keptStates.flatMap((x) => x.events),
      exception: keptStates.find((x) => x.exception)?.exception ?? null,
      promisedMaxDays: null,
    };
    snapshot.status = status;
  }
  return snapshot;
}

/** The catalogue variants a product's sync variants are made from: Printful's price and whether it makes them. */
export interface CatalogueVariant {
  price: number;
  currency: string;
  makes: boolean;
}

export function readCatalogueVariants(result: unknown): Map<string, CatalogueVariant> {
  const r = asObj(result, 'catalogue');
  const product = r.product && typeof r.product === 'object' ? (r.product as Obj) : null;
  const out = new Map<string, CatalogueVariant>();
  list(r.variants ?? [], 'catalogue.variants').forEach((raw, i) => {
    const at = `catalogue.variants[${i}]`;
    const v = asObj(raw, at);
    const currency = currencyOf(v, currencyOf(product));
    const statuses = Array.isArray(v.availability_status) ? v.availability_status.map((s) => (s && typeof s === 'object' ? (s as Obj).status : null)) : [];
    const discontinued = statuses.length > 0 && statuses.every((s) => s === 'discontinued' || s === 'out_of_stock');
    out.set(text(v, 'id', at), { price: minor(v.price, currency, `${at}.price`), currency, makes: v.in_stock !== false && !discontinued });
  });
  return out;
}

/** The product page this adapter gives Printful products (the store's product in the Printful dashboard). */
export const productUrl = (id: string) => `https://www.printful.com/dashboard/store/products/${encodeURIComponent(id)}`;

export function productIdFromUrl(url: URL): string | null {
  if (!/^(www\.)?printful\.com$/i.test(url.hostname)) return null;
  const m = /^\/dashboard\/store\/products\/(\d{1,15})\/?$/.exec(url.pathname);
  return m ? m[1] : null;
}

/** The catalogue product id each sync variant is made from. */
export function catalogueProductOf(v: Obj): string | null {
  const p = v.product && typeof v.product === 'object' ? (v.product as Obj) : null;
  return p ? optionalText(p, 'product_id') : null;
}

/** A store product (`{sync_product, sync_variants}`) with the catalogue's prices of what it is made from. */
export function readProduct(result: unknown, catalogue: Map<string, CatalogueVariant>): SupplierProduct {
  const r = asObj(result, 'product');
  const sp = asObj(r.sync_product, 'product.sync_product');
  const id = text(sp, 'id', 'product.sync_product');
  const variants = list(r.sync_variants ?? [], 'product.sync_variants').map((raw, i): SupplierVariant => {
    const at = `product.sync_variants[${i}]`;
    const v = asObj(raw, at);
    const made = catalogue.get(text(v, 'variant_id', at));
    if (!made) throw new ShapeError(`${at}.variant_id is not in the catalogue answer`);
    const status = optionalText(v, 'availability_status') ?? 'active';
    const available = made.makes && status === 'active' && v.is_ignored !== true;
    const options: Record<string, string> = {};
    for (const k of ['size', 'color'] as const) if (optionalText(v, k)) options[k] = optionalText(v, k)!;
    return {
      id: text(v, 'id', at),
      sku: optionalText(v, 'sku') ?? optionalText(v, 'external_id') ?? text(v, 'id', at),
      title: optionalText(v, 'name') ?? text(v, 'id', at),
      options,
      cost: { amountMinor: made.price, currency: made.currency },
      stock: available ? ON_DEMAND_STOCK : 0,
      available,
    };
  });
  const title = optionalText(sp, 'name') ?? id;
  return { id, title, description: '', url: productUrl(id), imageUrl: optionalText(sp, 'thumbnail_url'), shipsTo: WORLD, variants, updatedAt: null };
}
