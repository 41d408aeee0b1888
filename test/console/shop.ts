/** What the console test sets up through the API, as an integration would: orders and imports. */
import type { Sandbox, Service } from '../support/harness';
import { US_ADDRESS } from '../support/orders';
import type { ConsoleWorld } from './session';

/** Amounts as the console shows them (en-US, as the test browser is set). */
export const usd = (minor: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(minor / 100);

/** A product from the connection, an order for it, sent with payment: it pauses when the supplier balance is too low. */
export async function pausedOrder(svc: Service, sandbox: Sandbox, storeId: string, key: string, connectionId: string) {
  const items = (await sandbox.v1('sbx_live_demo', 'GET', '/products?pageSize=50&page=2')).body.items;
  const p = items.find((x: any) => x.shipsTo.includes('US') && x.variants[0].available && x.variants[0].stock >= 50);
  const imported = await svc.call('POST', `/api/store-suppliers/${storeId}/${connectionId}/import`, {
    key,
    body: { products: [{ supplierProductId: p.id, variantIds: [p.variants[0].id] }] },
  });
  if (imported.status !== 201) throw new Error(imported.text);
  const product = imported.body.result.products[0];
  const order = await svc.call('POST', `/api/store-orders/${storeId}`, {
    key,
    body: { items: [{ productId: product.id, variantId: product.variants[0].id, quantity: 1 }], destination: US_ADDRESS, paymentMethod: 'manual' },
  });
  if (order.status !== 201) throw new Error(order.text);
  return svc.call('POST', `/api/store-suppliers/${storeId}/orders/${order.body.result.id}/groups/${encodeURIComponent(`supplier:${connectionId}`)}/submit`, {
    key,
    body: { payNow: true },
  });
}

/** More products than the inline limit, so the import runs as a background job. */
export async function backgroundImport(svc: Service, sandbox: Sandbox, storeId: string, key: string, connectionId: string) {
  const all: Array<{ id: string }> = [];
  for (const n of [1, 3]) all.push(...(await sandbox.v1('sbx_live_demo', 'GET', `/products?pageSize=50&page=${n}`)).body.items);
  return svc.call('POST', `/api/store-suppliers/${storeId}/${connectionId}/import`, {
    key,
    body: { products: all.slice(0, 51).map((x) => ({ supplierProductId: x.id })) },
  });
}

/**
 * The world's store connected live to the sandbox (an account with a large balance), its automation as given, and one
 * product imported from a catalogue page: on sale, in stock and shipped to the US (and as `fits` asks).
 */
export async function connectAndImport(w: ConsoleWorld, opts: { page: number; automation?: Record<string, unknown>; fits?: (p: any) => boolean }) {
  const call = (method: string, path: string, body?: unknown) => w.svc.call(method, path, { key: w.owner.key, body });
  const account = await w.sandbox.account(10_000_000);
  const connId: string = (
    await call('POST', `/api/store-suppliers/${w.storeId}`, { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: account.liveKey } })
  ).body.result.id;
  if (opts.automation && (await call('PUT', `/api/store-suppliers/${w.storeId}/${connId}/automation`, opts.automation)).status !== 200)
    throw new Error('automation not saved');
  const items = (await w.sandbox.v1('sbx_live_demo', 'GET', `/products?pageSize=50&page=${opts.page}`)).body.items;
  const p = items.find((x: any) => x.shipsTo.includes('US') && x.variants[0].available && x.variants[0].stock >= 50 && (opts.fits?.(x) ?? true));
  const imported = await call('POST', `/api/store-suppliers/${w.storeId}/${connId}/import`, {
    products: [{ supplierProductId: p.id, variantIds: [p.variants[0].id] }],
  });
  if (imported.status !== 201) throw new Error(imported.text);
  const product = imported.body.result.products[0];
  return {
    connId,
    product: { id: product.id as string, title: product.title as string, variantId: product.variants[0].id as string, variant: product.variants[0] },
  };
}

/** A store order of one item, as a storefront (or a person) sends it. */
export async function placeOrder(
  w: ConsoleWorld,
  item: { productId: string; variantId: string },
  opts: { paymentMethod: string; contractModel?: string; destination?: Record<string, string> },
) {
  const body = {
    items: [{ ...item, quantity: 1 }],
    destination: opts.destination ?? US_ADDRESS,
    paymentMethod: opts.paymentMethod,
    contractModel: opts.contractModel ?? 'standard',
  };
  const res = await w.svc.call('POST', `/api/store-orders/${w.storeId}`, { key: w.owner.key, body });
  if (res.status !== 201) throw new Error(res.text);
  return res.body.result;
}
