/**
 * What the checks compare, gathered once after the settle phase: the suppliers' and the provider's own records (their
 * control APIs), and of the service only what ties those to the stores' orders (its supplier orders and store orders,
 * read over its API) and what only its database can tell (read-only: jobs, the outbox, the credit ledger).
 */
import { AeOrder, aeOrders, CjRecords, cjRecords, PfOrder, pfOrders, SandboxRecords, sandboxRecords } from './supplier-side';
import type { Suppliers } from './programs';
import type { Store } from './world';

export interface ServiceSupplierOrder {
  _id: string;
  orderId: string;
  fulfilmentGroupKey: string;
  supplierKey: string;
  status: string;
  reviewReason: string | null;
  supplierOrderNumber: string;
  supplierOrderId: string | null;
  payment: { status: string };
  attempt: number;
}

export interface ServiceStoreOrder {
  id: string;
  status: string;
  paymentStatus: string;
  fulfilmentGroups: Array<{ groupKey: string; connectionId: string | null; status: string }>;
}

export interface Gathered {
  sandbox: SandboxRecords;
  cj: CjRecords;
  aliexpress: AeOrder[];
  printful: PfOrder[];
  /** The service's supplier orders of every soak store, by id; each with its store. */
  supplierOrders: Map<string, ServiceSupplierOrder & { store: Store }>;
  /** By number without its attempt (`ss-<…>`): the supplier order a supplier's order was made for. */
  byNumberStem: Map<string, ServiceSupplierOrder & { store: Store }>;
}

/** `ss-<stem>-<attempt>` → `ss-<stem>`: every attempt of one supplier order shares it. */
export const numberStem = (n: string): string => n.replace(/-\d+$/, '');

async function supplierOrdersOf(store: Store): Promise<ServiceSupplierOrder[]> {
  const out: ServiceSupplierOrder[] = [];
  let cursor = '';
  for (;;) {
    const a = await store.api.patiently<{ result: { items: ServiceSupplierOrder[]; pagination: { nextCursor: string | null } } }>(
      'GET',
      `/api/store-suppliers/${store.storeId}/orders?pageSize=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { key: store.owner.key },
    );
    if (a.status !== 200) throw new Error(`listing the supplier orders of store ${store.index}: ${a.status} ${a.text.slice(0, 300)}`);
    out.push(...a.body.result.items);
    if (!a.body.result.pagination.nextCursor) return out;
    cursor = a.body.result.pagination.nextCursor;
  }
}

export async function gather(s: Suppliers, stores: Store[]): Promise<Gathered> {
  const supplierOrders = new Map<string, ServiceSupplierOrder & { store: Store }>();
  const byNumberStem = new Map<string, ServiceSupplierOrder & { store: Store }>();
  for (const store of stores) {
    for (const so of await supplierOrdersOf(store)) {
      const entry = { ...so, store };
      supplierOrders.set(so._id, entry);
      byNumberStem.set(numberStem(so.supplierOrderNumber), entry);
    }
  }
  return { sandbox: await sandboxRecords(s), cj: await cjRecords(s), aliexpress: await aeOrders(s), printful: await pfOrders(s), supplierOrders, byNumberStem };
}

export async function storeOrder(store: Store, orderId: string): Promise<ServiceStoreOrder | null> {
  const a = await store.api.patiently<{ result: ServiceStoreOrder }>('GET', `/api/store-orders/${store.storeId}/${orderId}`, { key: store.owner.key });
  return a.status === 200 ? a.body.result : null;
}

/** One order at a supplier, in common words: whose it is, its number, whether it is live and whether it was paid. */
export interface AtSupplier {
  supplier: 'sandbox' | 'cj' | 'aliexpress' | 'printful';
  id: string;
  account: string;
  number: string;
  status: string;
  live: boolean;
  paid: boolean;
}

/** Every order every supplier holds, each in the words above. */
export function ordersAtSuppliers(g: Gathered): AtSupplier[] {
  const sandboxPaid = new Map<string, number>();
  for (const p of g.sandbox.payments) sandboxPaid.set(p.orderId, (sandboxPaid.get(p.orderId) ?? 0) + 1);
  const cjPaid = new Set(g.cj.payments.map((p) => p.orderId));
  return [
    ...g.sandbox.orders.map((o) => ({
      supplier: 'sandbox' as const,
      id: o.id,
      account: o.accountId,
      number: o.orderNumber,
      status: o.status,
      live: o.status !== 'cancelled',
      paid: o.paid || (sandboxPaid.get(o.id) ?? 0) > 0,
    })),
    ...g.cj.orders.map((o) => ({
      supplier: 'cj' as const,
      id: o.orderId,
      account: o.openId,
      number: o.orderNumber,
      status: o.status,
      live: o.status !== 'CANCELLED',
      paid: cjPaid.has(o.orderId),
    })),
    ...g.aliexpress.map((o) => ({
      supplier: 'aliexpress' as const,
      id: o.id,
      account: o.userId,
      number: o.outOrderId,
      status: o.orderStatus,
      live: !(o.orderStatus === 'FINISH' && o.endReason),
      paid: o.paidAtCreate || o.orderStatus !== 'PLACE_ORDER_SUCCESS',
    })),
    // Confirmed is paid (the store's card is charged); a cancel refunds it.
    ...g.printful.map((o) => ({
      supplier: 'printful' as const,
      id: String(o.id),
      account: String(o.storeId),
      number: o.external_id,
      status: o.status,
      live: o.status !== 'canceled',
      paid: o.confirms > 0 && o.status !== 'canceled',
    })),
  ];
}
