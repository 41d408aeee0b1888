/**
 * The supplier contract suite against the sandbox supplier's API-key adapter and its own server; and against the same
 * adapter as the program's second warehouse (`sandbox-eu`, its own accounts, orders and stock at `/eu`).
 */
import type { SupplierCallContext } from '../../server/suppliers/adapter';
import { createSandboxAdapters } from '../../server/suppliers/sandbox/adapter';
import { Sandbox, seen, startSandbox } from '../support/harness';
import { ContractFixture, memory, supplierContract } from './contract';

/* eslint-disable @typescript-eslint/no-explicit-any */

function sandboxFixture(): ContractFixture {
  let sandbox: Sandbox | undefined;
  const started = startSandbox({ createHangMs: 3000 }).then((s) => (sandbox = s));
  const used = new Set<string>();
  let adapter: ReturnType<typeof createSandboxAdapters>[number] | undefined;
  return {
    get adapter() {
      return adapter!;
    },
    async connect() {
      const s = await started;
      adapter ??= createSandboxAdapters({ baseUrl: s.baseUrl })[0];
      const acc = await s.account(10_000_000);
      const ctx: SupplierCallContext = {
        connectionId: `sbx-${acc.accountId}`,
        mode: 'live',
        credentials: { apiKey: acc.liveKey },
        settings: { shippingSpeed: 'standard', orderNotePrefix: '' },
        timeoutMs: 5000,
        orderNumbers: memory(),
      };
      return ctx;
    },
    refused: (ctx) => ({ ...ctx, credentials: { apiKey: 'sbx_live_not_a_key_of_anyone' } }),
    async freshVariant() {
      for (let page = 1; page <= 5; page++) {
        for (const p of (await sandbox!.v1('sbx_live_demo', 'GET', `/products?pageSize=50&page=${page}`)).body.items) {
          const v = p.variants.find((x: any) => x.available && x.stock >= 5);
          if (!p.shipsTo.includes('US') || !v || used.has(p.id)) continue;
          used.add(p.id);
          return { productId: p.id, variantId: v.id };
        }
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
    timeOutNextCreate: async () => void (await sandbox!.control('POST', '/faults', { timeoutAfterCreateNext: 1 })),
    ordersAtSupplier: async (number) => (await sandbox!.control('GET', '/received')).ordersByNumber[number] ?? 0,
    close: async () => sandbox?.close(),
  };
}

supplierContract('Sandbox supplier', sandboxFixture);

/** The second warehouse through its own catalogue entry: every call at `/eu`, with that warehouse's accounts and records. */
function euFixture(): ContractFixture {
  let sandbox: Sandbox | undefined;
  const started = startSandbox({ createHangMs: 3000 }).then((s) => (sandbox = s));
  const used = new Set<string>();
  let adapter: ReturnType<typeof createSandboxAdapters>[number] | undefined;
  const eu = async (method: string, path: string, body?: unknown, key?: string): Promise<any> => {
    const res = await fetch(`${sandbox!.baseUrl}/eu${path}`, {
      method,
      headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.json();
  };
  return {
    get adapter() {
      return adapter!;
    },
    async connect() {
      const s = await started;
      adapter ??= createSandboxAdapters({ baseUrl: s.baseUrl, secondWarehouse: true }).find((a) => a.entry.key === 'sandbox-eu');
      const acc = await eu('POST', '/control/accounts', { balanceMinor: 10_000_000, testBalanceMinor: 10_000_000 });
      seen.secrets.add(acc.liveKey);
      seen.secrets.add(acc.testKey);
      const ctx: SupplierCallContext = {
        connectionId: `sbx-eu-${acc.accountId}`,
        mode: 'live',
        credentials: { apiKey: acc.liveKey },
        settings: { shippingSpeed: 'standard', orderNotePrefix: '' },
        timeoutMs: 5000,
        orderNumbers: memory(),
      };
      return ctx;
    },
    refused: (ctx) => ({ ...ctx, credentials: { apiKey: 'sbx_live_demo' } }),
    async freshVariant() {
      for (let page = 1; page <= 5; page++) {
        for (const p of (await eu('GET', `/v1/products?pageSize=50&page=${page}`, undefined, 'sbx_live_demo_eu')).items) {
          const v = p.variants.find((x: any) => x.available && x.stock >= 5);
          if (!p.shipsTo.includes('US') || !v || used.has(p.id)) continue;
          used.add(p.id);
          return { productId: p.id, variantId: v.id };
        }
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
    timeOutNextCreate: async () => void (await eu('POST', '/control/faults', { timeoutAfterCreateNext: 1 })),
    ordersAtSupplier: async (number) => (await eu('GET', '/control/received')).ordersByNumber[number] ?? 0,
    close: async () => sandbox?.close(),
  };
}

supplierContract('Sandbox supplier EU (second warehouse)', euFixture);
