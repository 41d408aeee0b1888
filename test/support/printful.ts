/** A store with a Printful connection (test/fakes/printful) and imported products, for service-level tests. */
import type { RunningFakePrintful } from '../fakes/printful';
import { createStore, newDeveloper, seen, ServiceClient } from './harness';
import type { Shop } from './orders';

/* eslint-disable @typescript-eslint/no-explicit-any */

/** Printful needs a state for the US. */
export const PRINTFUL_US = {
  name: 'Ada Lovelace',
  line1: '12 Analytical Street',
  city: 'Springfield',
  region: 'IL',
  postalCode: '62701',
  country: 'US',
  phone: '+1 555 010 0199',
  email: 'ada@example.test',
};

export interface PrintfulShop extends Shop {
  printful: { token: string; storeIds: number[] };
}

export async function printfulControl(fake: RunningFakePrintful, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(fake.controlUrl + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`control ${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Store products of the fake's catalogue no other call of this process took, each with a variant on sale. */
const taken = new Set<string>();
export async function freshProducts(fake: RunningFakePrintful, n: number): Promise<Array<{ productId: string; variantId: string; costMinor: number }>> {
  const out: Array<{ productId: string; variantId: string; costMinor: number }> = [];
  for (const p of await printfulControl(fake, 'GET', '/catalogue')) {
    const v = p.variants.find((x: any) => x.availability_status === 'active' && x.made.in_stock);
    if (!v || taken.has(`${fake.port}:${p.id}`)) continue;
    taken.add(`${fake.port}:${p.id}`);
    out.push({ productId: String(p.id), variantId: String(v.id), costMinor: Math.round(Number(v.made.price) * 100) });
    if (out.length === n) return out;
  }
  throw new Error('the fake Printful catalogue is exhausted');
}

/** A new Printful store (its token) connected to the service's store: the connection's id and the token. */
export async function connectPrintful(
  svc: ServiceClient,
  fake: RunningFakePrintful,
  owner: { key: string },
  storeId: string,
): Promise<{ connId: string; token: string; storeIds: number[] }> {
  const acc = await printfulControl(fake, 'POST', '/accounts', { name: 'Print shop' });
  seen.secrets.add(acc.token);
  const conn = await svc.call('POST', `/api/store-suppliers/${storeId}`, {
    key: owner.key,
    body: { supplierKey: 'printful', mode: 'live', credentials: { apiKey: acc.token } },
  });
  if (conn.status !== 201) throw new Error(conn.text);
  return { connId: conn.body.result.id, token: acc.token, storeIds: acc.storeIds };
}

/** A new Printful store (its token) connected to a new store of the service, or to `into` (another connection of it). */
export async function openPrintfulShop(
  svc: ServiceClient,
  fake: RunningFakePrintful,
  opts: { products?: number; automation?: Record<string, unknown>; into?: Shop } = {},
): Promise<PrintfulShop> {
  const owner = opts.into?.owner ?? (await newDeveloper(svc, { plan: 'pro', credits: 5000 }));
  const storeId = opts.into?.storeId ?? (await createStore(svc, owner.key));
  const acc = await connectPrintful(svc, fake, owner, storeId);
  const connId = acc.connId;
  if (opts.automation) await svc.call('PUT', `/api/store-suppliers/${storeId}/${connId}/automation`, { key: owner.key, body: opts.automation });
  const chosen = await freshProducts(fake, opts.products ?? 1);
  const res = await svc.call('POST', `/api/store-suppliers/${storeId}/${connId}/import`, {
    key: owner.key,
    body: { products: chosen.map((p) => ({ supplierProductId: p.productId, variantIds: [p.variantId] })), priceRule: { multiplier: '1' } },
  });
  if (res.status !== 201 || res.body.result.errors.length) throw new Error(res.text);
  const products = res.body.result.products.map((p: any, i: number) => ({
    productId: p.id,
    variantId: p.variants[0].id,
    supplierVariantId: chosen[i].variantId,
    supplierProductId: chosen[i].productId,
    costMinor: chosen[i].costMinor,
  }));
  return {
    owner,
    storeId,
    connId,
    account: { accountId: String(acc.storeIds[0]), liveKey: acc.token, testKey: '' },
    products,
    printful: { token: acc.token, storeIds: acc.storeIds },
  };
}

/** The orders the fake Printful holds under a number (its own records: confirms and cancels counted). */
export async function printfulOrdersAt(fake: RunningFakePrintful, orderNumber: string): Promise<any[]> {
  return (await printfulControl(fake, 'GET', '/orders')).filter((o: any) => o.external_id === orderNumber);
}
