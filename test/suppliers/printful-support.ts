/** The Printful adapter against the local Printful-format server (test/fakes/printful): a connection and the control API. */
import type { SupplierCallContext } from '../../server/suppliers/adapter';
import { createPrintfulAdapter, PrintfulAdapter } from '../../server/suppliers/printful/adapter';
import { FakePrintfulOptions, RunningFakePrintful, startFakePrintful } from '../fakes/printful';
import { seen } from '../support/harness';
import { memory } from './contract';

/* eslint-disable @typescript-eslint/no-explicit-any */

export interface PrintfulWorld {
  fake: RunningFakePrintful;
  adapter: PrintfulAdapter;
  control(method: string, path: string, body?: unknown): Promise<any>;
  /** A new store-level token (or an account-level one with its store ids) and its call context. */
  connect(opts?: { accountLevel?: boolean; stores?: number }): Promise<{ ctx: SupplierCallContext; storeIds: number[] }>;
  /** A variant on sale no other test of the file used. */
  freshVariant(): Promise<{ productId: string; variantId: string }>;
  /** The orders the fake holds under our number (its own view). */
  ordersAt(orderNumber: string): Promise<any[]>;
}

export const US = {
  name: 'Ada Lovelace',
  line1: '12 Analytical Street',
  city: 'Springfield',
  region: 'IL',
  postalCode: '62701',
  country: 'US',
  phone: '+1 555 010 0199',
};

export async function printfulWorld(opts: FakePrintfulOptions = {}): Promise<PrintfulWorld> {
  const fake = await startFakePrintful({ hangMs: 3000, requestsPerMinute: 1000, ...opts });
  const adapter = createPrintfulAdapter({ baseUrl: fake.baseUrl });
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
  return {
    fake,
    adapter,
    control,
    async connect(o = {}) {
      const acc = await control('POST', '/accounts', { accountLevel: o.accountLevel === true, stores: o.stores ?? 1, name: 'Test shop' });
      seen.secrets.add(acc.token);
      const credentials: Record<string, string> = { apiKey: acc.token };
      if (o.accountLevel) credentials.storeId = String(acc.storeIds[0]);
      const ctx: SupplierCallContext = {
        connectionId: `printful-${acc.storeIds[0]}`,
        mode: 'live',
        credentials,
        settings: {},
        timeoutMs: 5000,
        orderNumbers: memory(),
      };
      return { ctx, storeIds: acc.storeIds };
    },
    async freshVariant() {
      for (const p of await control('GET', '/catalogue')) {
        const v = p.variants.find((x: any) => x.availability_status === 'active' && x.made.in_stock);
        if (!v || used.has(String(p.id))) continue;
        used.add(String(p.id));
        return { productId: String(p.id), variantId: String(v.id) };
      }
      throw new Error('catalogue exhausted');
    },
    ordersAt: async (number) => (await control('GET', '/orders')).filter((o: any) => o.external_id === number),
  };
}
