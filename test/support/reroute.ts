/** Shared set-up for the reroute tests: a store with a sandbox connection (the primary) and a CJ connection (the backup). */
import { RunningFakeCj } from '../fakes/cj';
import { Sandbox, seen, Service } from './harness';
import { openShop, received, Shop } from './orders';

/* eslint-disable @typescript-eslint/no-explicit-any */

export interface RerouteShop extends Shop {
  cjConnId: string;
  /** The CJ account behind the CJ connection (its balance can be set at the fake). */
  cjOpenId: string;
  cj: { pid: string; vid: string };
  linkId: string;
}

export async function cjControl(fake: RunningFakeCj, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(fake.controlUrl + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`control ${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

const usedCj = new Set<string>();

/** Another CJ product on the store's CJ connection, priced at `priceMinor` with `stock`. */
export async function cjProduct(fake: RunningFakeCj, shop: RerouteShop, priceMinor: number, stock: number) {
  const catalogue = await cjControl(fake, 'GET', '/catalogue');
  const product = catalogue.find((p: any) => p.status === 3 && !usedCj.has(p.pid));
  usedCj.add(product.pid);
  const vid = product.variants[0].vid;
  await cjControl(fake, 'POST', `/variants/${vid}`, { sellPrice: (priceMinor / 100).toFixed(2), stock });
  return { connectionId: shop.cjConnId, supplierProductId: product.pid as string, supplierVariantId: vid as string };
}

/** Names the link's alternates, in this order. */
export async function setAlternates(
  svc: Service,
  shop: RerouteShop,
  alternates: Array<{ connectionId: string; supplierProductId: string; supplierVariantId: string }>,
) {
  const set = await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/links/${shop.linkId}`, {
    key: shop.owner.key,
    body: { alternates: alternates.map((a) => ({ storeVariantId: shop.products[0].variantId, ...a })) },
  });
  if (set.status !== 200) throw new Error(set.text);
  return set.body.result;
}

/** A second alternate after the first, another CJ product: `stock` and `priceFactor` of its own. */
export async function secondAlternate(svc: Service, fake: RunningFakeCj, shop: RerouteShop, opts: { stock?: number; priceFactor?: number } = {}) {
  const second = await cjProduct(fake, shop, Math.round(shop.products[0].costMinor * (opts.priceFactor ?? 1)), opts.stock ?? 500);
  await setAlternates(svc, shop, [{ connectionId: shop.cjConnId, supplierProductId: shop.cj.pid, supplierVariantId: shop.cj.vid }, second]);
  return second;
}

/**
 * A store whose sandbox product has the CJ variant as its one alternate, priced like the primary (times `priceFactor`).
 * `page`: the sandbox catalogue page the product comes from (one per test: variant changes at the sandbox are global).
 */
export async function openRerouteShop(
  svc: Service,
  sandbox: Sandbox,
  fake: RunningFakeCj,
  opts: { page: number; automation?: Record<string, unknown>; priceFactor?: number; plan?: string; balanceMinor?: number },
): Promise<RerouteShop> {
  const shop = await openShop(svc, sandbox, {
    page: opts.page,
    products: 1,
    plan: opts.plan,
    balanceMinor: opts.balanceMinor,
    automation: { level: 'automatic', allowUnpaidOrders: true, ...(opts.automation ?? {}) },
  });
  const acc = await cjControl(fake, 'POST', '/accounts', { balance: '10000.00', qps: 6 });
  seen.secrets.add(acc.apiKey);
  seen.secrets.add(acc.openId);
  const conn = await svc.call('POST', `/api/store-suppliers/${shop.storeId}`, {
    key: shop.owner.key,
    body: { supplierKey: 'cj', mode: 'live', credentials: { apiKey: acc.apiKey }, settings: { requestsPerSecond: 6 } },
  });
  if (conn.status !== 201) throw new Error(conn.text);
  const catalogue = await cjControl(fake, 'GET', '/catalogue');
  const product = catalogue.find((p: any) => p.status === 3 && !usedCj.has(p.pid));
  usedCj.add(product.pid);
  const vid = product.variants[0].vid;
  const price = ((shop.products[0].costMinor * (opts.priceFactor ?? 1)) / 100).toFixed(2);
  await cjControl(fake, 'POST', `/variants/${vid}`, { sellPrice: price, stock: 500 });
  const links = await svc.call('GET', `/api/store-suppliers/${shop.storeId}/links?productId=${shop.products[0].productId}`, { key: shop.owner.key });
  const linkId = links.body.result.items[0].id;
  const set = await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/links/${linkId}`, {
    key: shop.owner.key,
    body: {
      alternates: [{ storeVariantId: shop.products[0].variantId, connectionId: conn.body.result.id, supplierProductId: product.pid, supplierVariantId: vid }],
    },
  });
  if (set.status !== 200) throw new Error(set.text);
  return { ...shop, cjConnId: conn.body.result.id, cjOpenId: acc.openId, cj: { pid: product.pid, vid }, linkId };
}

/** What each supplier really holds for these numbers: live (not cancelled) orders at the sandbox and at CJ. */
export async function liveOrders(sandbox: Sandbox, fake: RunningFakeCj, numbers: string[]): Promise<{ sandbox: number; cj: number }> {
  const atSandbox = (await received(sandbox)).orders.filter((o: any) => numbers.includes(o.orderNumber) && o.status !== 'cancelled');
  const atCj = (await cjControl(fake, 'GET', '/received')).orders.filter(
    (o: any) => numbers.includes(o.orderNumber) && !/cancel/i.test(String(o.orderStatus ?? o.status ?? '')),
  );
  return { sandbox: atSandbox.length, cj: atCj.length };
}

/** The sandbox program's second warehouse (`sandbox-eu`, at /eu): its control API. */
export async function euControl(sandbox: Sandbox, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${sandbox.baseUrl}/eu/control${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`eu control ${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/**
 * The store's connection to the second warehouse (the service started with SANDBOX_SUPPLIER_EU=true), on an account of
 * its own keeping its books in `currency` (the warehouse then prices, quotes and charges in it).
 */
export async function connectEu(svc: Service, sandbox: Sandbox, shop: Shop, currency = 'USD'): Promise<string> {
  const acc = await euControl(sandbox, 'POST', '/accounts', { currency });
  seen.secrets.add(acc.liveKey);
  seen.secrets.add(acc.testKey);
  const conn = await svc.call('POST', `/api/store-suppliers/${shop.storeId}`, {
    key: shop.owner.key,
    body: { supplierKey: 'sandbox-eu', mode: 'live', credentials: { apiKey: acc.liveKey } },
  });
  if (conn.status !== 201) throw new Error(conn.text);
  const auto = await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/${conn.body.result.id}/automation`, {
    key: shop.owner.key,
    body: { level: 'automatic', allowUnpaidOrders: true },
  });
  if (auto.status !== 200) throw new Error(auto.text);
  return conn.body.result.id;
}

const usedEu = new Set<string>();

/**
 * A product of the second warehouse, not used before, that ships to the US: its first variant set to `costCents` (US
 * cents: an account in another currency reads it converted) and `stock`. Answers the alternate on `connectionId`.
 */
export async function euProduct(sandbox: Sandbox, connectionId: string, costCents: number, stock = 500) {
  for (let page = 1; page < 20; page++) {
    const res = await fetch(`${sandbox.baseUrl}/eu/v1/products?pageSize=50&page=${page}`, { headers: { Authorization: 'Bearer sbx_live_demo_eu' } });
    const items = ((await res.json()) as any).items;
    const p = items.find((x: any) => !usedEu.has(x.id) && x.shipsTo.includes('US'));
    if (!p) continue;
    usedEu.add(p.id);
    await euControl(sandbox, 'POST', `/variants/${p.variants[0].id}`, { costMinor: costCents, stock, available: true });
    return { connectionId, supplierProductId: p.id as string, supplierVariantId: p.variants[0].id as string };
  }
  throw new Error('no product of the second warehouse left');
}
