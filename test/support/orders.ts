/** Shared set-up for order and dispatch tests: a store with a sandbox connection, imported products, and orders. */
import { createStore, Developer, eventually, newDeveloper, Sandbox, Service, ServiceClient } from './harness';

export const US_ADDRESS = {
  name: 'Ada Lovelace',
  line1: '12 Analytical Street',
  city: 'Springfield',
  postalCode: '62701',
  country: 'US',
  phone: '+1 555 010 0199',
  email: 'ada@example.test',
};

export interface Shop {
  owner: Developer;
  storeId: string;
  connId: string;
  account: { accountId: string; liveKey: string; testKey: string };
  /** Imported products: store product id, its first variant, and the supplier variant behind it. */
  products: Array<{ productId: string; variantId: string; supplierVariantId: string; supplierProductId: string; costMinor: number }>;
}

/** A supplier product whose first variant is on sale, in stock and shipped to the US. */
async function goodProducts(sandbox: Sandbox, page: number, n: number) {
  const items = (await sandbox.v1('sbx_live_demo', 'GET', `/products?pageSize=50&page=${page}`)).body.items;
  return items.filter((p: any) => p.shipsTo.includes('US') && p.variants[0].available && p.variants[0].stock >= 50).slice(0, n);
}

export async function openShop(
  svc: ServiceClient,
  sandbox: Sandbox,
  opts: { page?: number; products?: number; balanceMinor?: number; automation?: Record<string, unknown>; mode?: 'live' | 'test'; plan?: string } = {},
): Promise<Shop> {
  const owner = await newDeveloper(svc, { plan: opts.plan ?? 'pro', credits: 5000 });
  const storeId = await createStore(svc, owner.key);
  const account = await sandbox.account(opts.balanceMinor ?? 10_000_000);
  const mode = opts.mode ?? 'live';
  const conn = await svc.call('POST', `/api/store-suppliers/${storeId}`, {
    key: owner.key,
    body: { supplierKey: 'sandbox', mode, credentials: { apiKey: mode === 'live' ? account.liveKey : account.testKey } },
  });
  if (conn.status !== 201) throw new Error(conn.text);
  const connId = conn.body.result.id;
  if (opts.automation) await svc.call('PUT', `/api/store-suppliers/${storeId}/${connId}/automation`, { key: owner.key, body: opts.automation });
  const chosen = await goodProducts(sandbox, opts.page ?? 2, opts.products ?? 2);
  const res = await svc.call('POST', `/api/store-suppliers/${storeId}/${connId}/import`, {
    key: owner.key,
    body: { products: chosen.map((p: any) => ({ supplierProductId: p.id, variantIds: [p.variants[0].id] })) },
  });
  if (res.status !== 201 || res.body.result.errors.length) throw new Error(res.text);
  const products = res.body.result.products.map((p: any, i: number) => ({
    productId: p.id,
    variantId: p.variants[0].id,
    supplierVariantId: chosen[i].variants[0].id,
    supplierProductId: chosen[i].id,
    costMinor: chosen[i].variants[0].costMinor,
  }));
  return { owner, storeId, connId, account, products };
}

export async function placeOrder(
  svc: ServiceClient,
  shop: Shop,
  opts: {
    paymentMethod?: string;
    contractModel?: string;
    quantity?: number;
    productIndex?: number;
    destination?: Record<string, string>;
    ownItem?: { productId: string; variantId: string };
    key?: string;
  } = {},
) {
  const p = shop.products[opts.productIndex ?? 0];
  const items = [{ productId: p.productId, variantId: p.variantId, quantity: opts.quantity ?? 1 }];
  if (opts.ownItem) items.push({ ...opts.ownItem, quantity: 1 });
  const res = await svc.call('POST', `/api/store-orders/${shop.storeId}`, {
    key: opts.key ?? shop.owner.key,
    body: {
      items,
      destination: opts.destination ?? US_ADDRESS,
      paymentMethod: opts.paymentMethod ?? 'manual',
      contractModel: opts.contractModel ?? 'standard',
    },
  });
  if (res.status !== 201) throw new Error(res.text);
  return res.body.result;
}

export const partKeyOf = (shop: Shop) => `supplier:${shop.connId}`;

export function submit(svc: ServiceClient, shop: Shop, orderId: string, body: Record<string, unknown> = {}, key = shop.owner.key) {
  return svc.call('POST', `/api/store-suppliers/${shop.storeId}/orders/${orderId}/groups/${encodeURIComponent(partKeyOf(shop))}/submit`, { key, body });
}

export function soAction(svc: ServiceClient, shop: Shop, soId: string, action: 'retry' | 'pay' | 'cancel', body?: Record<string, unknown>) {
  return svc.call('POST', `/api/store-suppliers/${shop.storeId}/orders/${soId}/${action}`, {
    key: shop.owner.key,
    body: action === 'retry' ? (body ?? {}) : undefined,
  });
}

export async function received(sandbox: Sandbox, orderNumberPrefix?: string) {
  const r = await sandbox.control('GET', '/received');
  const count = (n: string) => r.ordersByNumber[n] ?? 0;
  const orders = orderNumberPrefix ? r.orders.filter((o: any) => o.orderNumber.startsWith(orderNumberPrefix)) : r.orders;
  return { all: r, count, orders, payments: orderNumberPrefix ? r.payments.filter((p: any) => p.orderNumber.startsWith(orderNumberPrefix)) : r.payments };
}

/**
 * Waits out the read-backs already queued for a supplier order (by notifications sent before a test silenced the
 * account): one running after the test changes the order at the supplier would learn of it first. Checked twice,
 * apart, so a notification in flight when the account went silent is waited for too.
 */
export async function readBacksDone(svc: Service, supplierOrderId: string): Promise<void> {
  const waiting = () =>
    svc.db
      .query(
        `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'readback.supplier-order' AND state IN ('created', 'retry', 'active') AND data->>'supplierOrderId' = $1`,
        [supplierOrderId],
      )
      .then((r) => (r.rows[0].n === 0 ? true : undefined));
  for (let i = 0; i < 2; i++) {
    await new Promise((r) => setTimeout(r, 300));
    await eventually(waiting, 20000, 'the read-backs queued before');
  }
}
