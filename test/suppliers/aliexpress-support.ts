/**
 * Shared set-up for the service-level AliExpress tests: the local AliExpress-format server, the service configured
 * with its app, and stores connected by signing in (the merchant's side of the authorize page included).
 */
import { RunningFakeAliExpress, startFakeAliExpress } from '../fakes/aliexpress';
import { createStore, eventually, newDeveloper, seen, Service, type ServiceOptions, startService } from '../support/harness';
import type { Shop } from '../support/orders';
import { aliExpressApproval, approveAt, CookieBrowser, openSignIn } from '../support/sign-in-browser';

/* eslint-disable @typescript-eslint/no-explicit-any */

export interface AeShop extends Shop {
  buyer: { userId: string; nick: string };
}

export interface AeWorld {
  fake: RunningFakeAliExpress;
  svc: Service;
  control(method: string, path: string, body?: unknown): Promise<any>;
  /** A store signed in to a new AliExpress buyer, with `products` imported (first sku of each, one test each). */
  openShop(opts?: { products?: number; automation?: Record<string, unknown>; buyer?: Record<string, unknown>; filter?: (p: any) => boolean }): Promise<AeShop>;
  /**
   * Signs the store in to the buyer through the service's sign-in routes: started with the owner's key, opened in the
   * owner's browser (signed in), approved at AliExpress, and back in that browser; answers the callback's answer.
   */
  signIn(owner: { key: string; session: string }, storeId: string, userId: string): Promise<{ status: number; body: any; text: string }>;
  getSo(shop: AeShop, soId: string): Promise<any>;
  settles(shop: AeShop, soId: string, status: string, timeoutMs?: number): Promise<any>;
  pausedAs(shop: AeShop, soId: string, reason: string, timeoutMs?: number): Promise<any>;
  ordersAt(outOrderId: string): Promise<any[]>;
  close(): Promise<void>;
}

export async function startAeWorld(label: string, env: Record<string, string> = {}, service: Partial<ServiceOptions> = {}): Promise<AeWorld> {
  const fake = await startFakeAliExpress({ orderReadableAfterMs: 1500, createHangMs: 5000 });
  seen.secrets.add(fake.appSecret);
  const svc = await startService({
    ...service,
    label,
    publicBaseUrl: true,
    env: {
      ALIEXPRESS_APP_KEY: fake.appKey,
      ALIEXPRESS_APP_SECRET: fake.appSecret,
      ALIEXPRESS_API_BASE_URL: fake.baseUrl,
      SUPPLIER_TIMEOUT_MS: '2500',
      DISPATCH_RETRY_LIMIT: '1',
      DISPATCH_RETRY_BASE_SECONDS: '1',
      JOB_SUPERVISE_SECONDS: '1',
      SUPPLIER_READBACK_INTERVAL_SECONDS: '2',
      SUPPLIER_CREDENTIAL_RENEWAL_SECONDS: '1',
      ...env,
    },
  });
  const used = new Set<string>();
  const control = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(fake.controlUrl + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`control ${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };

  const signIn = async (owner: { key: string; session: string }, storeId: string, userId: string) => {
    const started = await svc.call('POST', `/api/store-suppliers/${storeId}/oauth/start`, {
      key: owner.key,
      body: { supplierKey: 'aliexpress', mode: 'live' },
    });
    if (started.status !== 200) throw new Error(started.text);
    const browser = new CookieBrowser();
    const opened = await openSignIn(browser, svc, started.body.result.authorizationUrl, owner.session);
    if (!opened.supplierUrl) throw new Error(`sign-in not opened: ${opened.status} ${JSON.stringify(opened.body)}`);
    // The merchant approves on AliExpress's page, which sends the browser back to the service with a code.
    const answer = await browser.navigate(await approveAt(opened.supplierUrl, aliExpressApproval(userId)));
    const buyer = await control('GET', `/buyers/${userId}`);
    for (const t of buyer.issued) seen.secrets.add(t);
    return answer;
  };

  const world: AeWorld = {
    fake,
    svc,
    control,
    signIn,
    async openShop(opts = {}) {
      const owner = await newDeveloper(svc, { plan: 'pro', credits: 5000 });
      const storeId = await createStore(svc, owner.key);
      const buyer = await control('POST', '/buyers', opts.buyer ?? {});
      const conn = await signIn(owner, storeId, buyer.userId);
      if (conn.status !== 201) throw new Error(conn.text);
      const connId = conn.body.result.id;
      if (opts.automation) {
        const res = await svc.call('PUT', `/api/store-suppliers/${storeId}/${connId}/automation`, { key: owner.key, body: opts.automation });
        if (res.status !== 200) throw new Error(res.text);
      }
      if (opts.products === 0) return { owner, storeId, connId, account: { accountId: buyer.userId, liveKey: '', testKey: '' }, products: [], buyer };
      const catalogue: any[] = await control('GET', '/catalogue');
      const chosen = catalogue
        .filter((p) => p.status === 'onSelling' && !p.notSoldTo.length && !used.has(p.productId) && (opts.filter ?? (() => true))(p))
        .slice(0, opts.products ?? 1);
      for (const p of chosen) used.add(p.productId);
      const res = await svc.call('POST', `/api/store-suppliers/${storeId}/${connId}/import`, {
        key: owner.key,
        body: {
          products: chosen.map((p) => ({ supplierProductId: p.productId, variantIds: [`${p.productId}:${p.skus[0].skuId}`] })),
          priceRule: { multiplier: '1' },
        },
      });
      if (res.status !== 201 || res.body.result.errors.length) throw new Error(res.text);
      const products = res.body.result.products.map((sp: any, i: number) => ({
        productId: sp.id,
        variantId: sp.variants[0].id,
        supplierVariantId: `${chosen[i].productId}:${chosen[i].skus[0].skuId}`,
        supplierProductId: chosen[i].productId,
        costMinor: chosen[i].skus[0].priceCents,
      }));
      return { owner, storeId, connId, account: { accountId: buyer.userId, liveKey: '', testKey: '' }, products, buyer };
    },
    getSo: async (shop, soId) => (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders/${soId}`, { key: shop.owner.key })).body.result,
    async settles(shop, soId, status, timeoutMs = 25000) {
      return eventually(
        async () => {
          const so = await world.getSo(shop, soId);
          if (so.status === status) return so;
          if (['needsReview', 'cancelled'].includes(so.status))
            throw new Error(`ended ${so.status}: ${JSON.stringify({ reviewReason: so.reviewReason, reviewMessage: so.reviewMessage, events: so.events })}`);
          return undefined;
        },
        timeoutMs,
        `supplier order ${soId} to become ${status}`,
      );
    },
    async pausedAs(shop, soId, reason, timeoutMs = 25000) {
      const so = await eventually(
        async () => {
          const s = await world.getSo(shop, soId);
          return s.status === 'needsReview' ? s : undefined;
        },
        timeoutMs,
        `supplier order ${soId} to pause as ${reason}`,
      );
      expect({ status: so.status, reviewReason: so.reviewReason }).toEqual({ status: 'needsReview', reviewReason: reason });
      return so;
    },
    ordersAt: (outOrderId) => control('GET', `/orders?outOrderId=${encodeURIComponent(outOrderId)}`),
    async close() {
      await svc.stop();
      await fake.close();
    },
  };
  return world;
}
