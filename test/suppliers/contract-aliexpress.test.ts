/** The supplier contract suite against the AliExpress adapter and the local AliExpress-format server (test/fakes/aliexpress). */
import type { SupplierCallContext } from '../../server/suppliers/adapter';
import { createAliExpressAdapter } from '../../server/suppliers/aliexpress/adapter';
import { ALIEXPRESS_DESCRIPTION } from '../../server/suppliers/aliexpress/description';
import { RunningFakeAliExpress, startFakeAliExpress } from '../fakes/aliexpress';
import { seen } from '../support/harness';
import { ContractFixture, memory, supplierContract } from './contract';

/* eslint-disable @typescript-eslint/no-explicit-any */

export async function aeControl(fake: RunningFakeAliExpress, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(fake.controlUrl + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`control ${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

function aliExpressFixture(): ContractFixture {
  let fake: RunningFakeAliExpress | undefined;
  const started = startFakeAliExpress({ orderReadableAfterMs: 800, createHangMs: 3000 }).then((f) => (fake = f));
  const used = new Set<string>();
  const adapterFor = (f: RunningFakeAliExpress) =>
    createAliExpressAdapter({ app: { appKey: f.appKey, appSecret: f.appSecret, baseUrl: f.baseUrl }, callLimitWaitMs: 50 });
  let adapter: ReturnType<typeof adapterFor> | undefined;
  const fixture: ContractFixture = {
    get adapter() {
      return adapter!;
    },
    async connect() {
      const f = await started;
      adapter ??= adapterFor(f);
      const buyer = await aeControl(f, 'POST', '/buyers', {});
      // The merchant's side of the sign-in: the authorize page approves and sends back a code.
      const url = `${adapter.signInUrl({ state: 'contract', redirectUri: 'http://127.0.0.1:9/callback', mode: 'live' })}&user=${buyer.userId}`;
      const res = await fetch(url, { redirect: 'manual' });
      const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
      const credentials = await adapter.exchangeSignInCode({ code, redirectUri: 'http://127.0.0.1:9/callback', timeoutMs: 5000 });
      for (const v of [credentials.accessToken, credentials.refreshToken]) seen.secrets.add(v);
      const ctx: SupplierCallContext = {
        connectionId: `ae-${buyer.userId}`,
        mode: 'live',
        credentials,
        settings: { ...ALIEXPRESS_DESCRIPTION.defaultSettings },
        timeoutMs: 5000,
        ordering: { shippingMethod: { rule: 'cheapest' } },
        orderNumbers: memory(),
      };
      return ctx;
    },
    refused: (ctx) => ({ ...ctx, credentials: { ...ctx.credentials, accessToken: `ae_at_${'0'.repeat(48)}` } }),
    async freshVariant() {
      const products: any[] = await aeControl(fake!, 'GET', '/catalogue');
      for (const p of products) {
        const sku = p.skus.find((s: any) => s.stock > 5);
        if (p.status !== 'onSelling' || !sku || used.has(p.productId)) continue;
        used.add(p.productId);
        return { productId: p.productId, variantId: `${p.productId}:${sku.skuId}` };
      }
      throw new Error('catalogue exhausted');
    },
    destination: {
      name: 'Ada Lovelace',
      line1: '12 Analytical Street',
      city: 'Springfield',
      region: 'IL',
      postalCode: '62701',
      country: 'US',
      phone: '+1 555 010 0199',
    },
    timeOutNextCreate: async () => void (await aeControl(fake!, 'POST', '/faults', { timeoutAfterCreateNext: 1 })),
    ordersAtSupplier: async (number) => (await aeControl(fake!, 'GET', `/orders?outOrderId=${encodeURIComponent(number)}`)).length,
    close: async () => fake?.close(),
  };
  return fixture;
}

supplierContract('AliExpress (local AliExpress-format server)', aliExpressFixture);
