/** The supplier contract suite against the CJ adapter and the local CJ-format server (test/fakes/cj). */
import { randomBytes } from 'node:crypto';
import type { SupplierCallContext } from '../../server/suppliers/adapter';
import { createCjAdapter } from '../../server/suppliers/cj/adapter';
import { RunningFakeCj, startFakeCj } from '../fakes/cj';
import { seen } from '../support/harness';
import { ContractFixture, memory, supplierContract } from './contract';

/* eslint-disable @typescript-eslint/no-explicit-any */

function cjFixture(): ContractFixture {
  let fake: RunningFakeCj | undefined;
  const started = startFakeCj({ createHangMs: 3000 }).then((f) => (fake = f));
  const used = new Set<string>();
  const control = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch((await started).controlUrl + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`control ${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  let adapter: ReturnType<typeof createCjAdapter> | undefined;
  // CJ Advanced: 6 calls a second; the service spaces them (call-rate.ts), here one process does.
  let next = 0;
  const pace = async () => {
    const at = Math.max(Date.now(), next);
    next = at + 190;
    await new Promise((r) => setTimeout(r, at - Date.now()));
  };
  return {
    get adapter() {
      return adapter!;
    },
    async connect() {
      const f = await started;
      adapter ??= createCjAdapter({ baseUrl: f.baseUrl });
      const acc = await control('POST', '/accounts', { balance: '10000.00', qps: 6 });
      seen.secrets.add(acc.apiKey);
      const credentials: Record<string, string> = { apiKey: acc.apiKey };
      const ctx: SupplierCallContext = {
        connectionId: `cj-${acc.openId}`,
        mode: 'live',
        credentials,
        settings: { requestsPerSecond: 6, fromCountryCode: 'CN' },
        timeoutMs: 5000,
        onCredentialsChanged: async (changed) => void Object.assign(credentials, changed),
        pace,
        orderNumbers: memory(),
      };
      return ctx;
    },
    refused: (ctx) => ({ ...ctx, credentials: { apiKey: `CJ1234567@api@${randomBytes(16).toString('hex')}` }, onCredentialsChanged: undefined }),
    async freshVariant() {
      for (const p of await control('GET', '/catalogue')) {
        const v = p.variants.find((x: any) => !x.removed && x.totalStock > 5);
        if (p.status !== 3 || !v || used.has(p.pid)) continue;
        used.add(p.pid);
        return { productId: p.pid, variantId: v.vid };
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
    timeOutNextCreate: async () => void (await control('POST', '/faults', { timeoutAfterCreateNext: 1 })),
    ordersAtSupplier: async (number) => (await control('GET', '/received')).orders.filter((o: any) => o.orderNumber === number).length,
    close: async () => fake?.close(),
  };
}

supplierContract('CJ Dropshipping (local CJ-format server)', cjFixture);
