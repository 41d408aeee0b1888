/**
 * The sandbox's second warehouse (`/eu`): another supplier identity of the same program, with its own accounts,
 * orders and stock, and a catalogue that overlaps the main one at other costs, stock, origin, delivery times and
 * shipping prices.
 */
import { DEMO_ACCOUNT, EU_DEMO_ACCOUNT, startSandboxSupplier, type RunningSandboxSupplier } from '../../server/sandboxes/supplier';

process.env.SANDBOX_LOG_LEVEL ??= 'silent';

/* eslint-disable @typescript-eslint/no-explicit-any */

let sbx: RunningSandboxSupplier;
beforeAll(async () => {
  sbx = await startSandboxSupplier({ port: 0, control: true, productCount: 200 });
});
afterAll(async () => {
  await sbx?.close();
});

async function call(path: string, key: string | null, method = 'GET', body?: unknown): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(sbx.baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}
const all = async (prefix: string, key: string) =>
  (await call(`${prefix}/v1/products?pageSize=100&page=1`, key)).body.items.concat((await call(`${prefix}/v1/products?pageSize=100&page=2`, key)).body.items);

test('each warehouse knows only its own accounts', async () => {
  expect((await call('/eu/v1/account', EU_DEMO_ACCOUNT.liveKey)).body).toMatchObject({ accountId: 'acct_demo_eu', environment: 'live' });
  expect((await call('/v1/account', DEMO_ACCOUNT.liveKey)).body).toMatchObject({ accountId: 'acct_demo' });
  expect((await call('/eu/v1/account', DEMO_ACCOUNT.liveKey)).status).toBe(401);
  expect((await call('/v1/account', EU_DEMO_ACCOUNT.liveKey)).status).toBe(401);
});

test('the catalogues overlap: most products at both, the same variants, other costs, origin and delivery times', async () => {
  const main = await all('', DEMO_ACCOUNT.liveKey);
  const eu = await all('/eu', EU_DEMO_ACCOUNT.liveKey);
  expect(main).toHaveLength(200);
  expect(eu.length).toBeGreaterThan(120);
  expect(eu.length).toBeLessThan(190);
  const byId = new Map(main.map((p: any) => [p.id, p]));
  let dearer = 0;
  let cheaper = 0;
  for (const p of eu) {
    const m: any = byId.get(p.id);
    expect({ id: p.id, title: p.title, variants: p.variants.map((v: any) => v.id) }).toEqual({
      id: m.id,
      title: m.title,
      variants: m.variants.map((v: any) => v.id),
    });
    expect([p.shipsFrom, m.shipsFrom]).toEqual(['DE', 'CN']);
    expect(p.deliveryDays.max).toBeLessThan(m.deliveryDays.min);
    if (p.variants[0].costMinor > m.variants[0].costMinor) dearer++;
    if (p.variants[0].costMinor < m.variants[0].costMinor) cheaper++;
  }
  expect(dearer).toBeGreaterThan(10);
  expect(cheaper).toBeGreaterThan(10);
});

test("stock and orders are each warehouse's own; shipping is priced by each", async () => {
  const eu = await all('/eu', EU_DEMO_ACCOUNT.liveKey);
  const main = new Map((await all('', DEMO_ACCOUNT.liveKey)).map((p: any) => [p.id, p]));
  const p = eu.find(
    (x: any) => x.shipsTo.includes('US') && x.variants[0].available && x.variants[0].stock > 5 && (main.get(x.id) as any)?.variants[0].stock > 5,
  );
  const v = p.variants[0].id;
  const before = (main.get(p.id) as any).variants[0].stock;
  const destination = { name: 'A', line1: '1 Main', city: 'X', postalCode: '1', country: 'US' };
  const order = await call('/eu/v1/orders', EU_DEMO_ACCOUNT.liveKey, 'POST', { orderNumber: 'WH-1', items: [{ variantId: v, quantity: 2 }], destination });
  expect(order.status).toBe(201);
  expect(order.body.costs).toMatchObject({ itemsMinor: 2 * p.variants[0].costMinor, shippingMinor: 899 + 150 });
  expect((await call(`/eu/v1/products/${p.id}`, EU_DEMO_ACCOUNT.liveKey)).body.variants[0].stock).toBe(p.variants[0].stock - 2);
  expect((await call(`/v1/products/${p.id}`, DEMO_ACCOUNT.liveKey)).body.variants[0].stock).toBe(before);
  // The main warehouse has no such order; its control API changes only its own stock.
  expect((await call('/v1/orders?orderNumber=WH-1', DEMO_ACCOUNT.liveKey)).body.items).toEqual([]);
  await call(`/control/variants/${v}`, null, 'POST', { stock: 0 });
  expect((await call(`/v1/products/${p.id}`, DEMO_ACCOUNT.liveKey)).body.variants[0].stock).toBe(0);
  expect((await call(`/eu/v1/products/${p.id}`, EU_DEMO_ACCOUNT.liveKey)).body.variants[0].stock).toBe(p.variants[0].stock - 2);
  const mainOrder = await call('/v1/orders', DEMO_ACCOUNT.liveKey, 'POST', { orderNumber: 'WH-2', items: [{ variantId: v, quantity: 1 }], destination });
  expect([mainOrder.status, mainOrder.body.error.code]).toEqual([422, 'variantUnavailable']);
});
