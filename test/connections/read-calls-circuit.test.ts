/**
 * The circuit breaker counts supplier faults only: whatever a user asks to read, with whatever ids, the
 * connection's circuit stays closed and the next order is sent.
 */
import http from 'node:http';
import { leakScanTest, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, received, Shop, submit } from '../support/orders';

let sandbox: Sandbox;
let svc: Service;
let shop: Shop;

beforeAll(async () => {
  sandbox = await startSandbox();
  // Two faults would open it: any read counted as one shows at once.
  svc = await startService({ label: 'readcircuit', sandbox, publicBaseUrl: true, env: { CIRCUIT_FAILURE_THRESHOLD: '2', CIRCUIT_COOLDOWN_SECONDS: '600' } });
  shop = await openShop(svc, sandbox, { products: 1 });
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

const HOSTILE_IDS = [
  '.',
  '..',
  '%2e',
  '%2E%2E',
  '.%2e',
  '%ED%A0%80',
  '%EF%BF%BF',
  '%00',
  'a%2Fb',
  '..%2F..%2Fv1%2Faccount',
  '%5C..',
  'SBX-P999999999',
  '%20',
  '~',
  'x'.repeat(300),
  '%E0%A4%A',
];

/** A GET whose path goes out exactly as written (fetch would resolve `.` and `..` segments first). */
function rawGet(path: string, key: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(svc.baseUrl + '/', { method: 'GET', path, headers: { 'X-API-Key': key } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function circuit() {
  const [row] = (await svc.db.query('SELECT consecutive_failures, circuit_open_until FROM supplier_connections WHERE id = $1', [shop.connId])).rows;
  const listed = (await svc.call('GET', `/api/store-suppliers/${shop.storeId}`, { key: shop.owner.key })).body.result.find((c: any) => c.id === shop.connId);
  return { failures: row.consecutive_failures, openUntil: row.circuit_open_until, isCircuitOpen: listed.isCircuitOpen };
}

test('no sequence of read calls opens the circuit; the next submit is sent to the supplier', async () => {
  const base = `/api/store-suppliers/${shop.storeId}/${shop.connId}`;
  const key = shop.owner.key;
  const statuses: Array<[string, number, string | undefined]> = [];
  const note = async (what: string, p: Promise<{ status: number; body: any }>) => {
    const res = await p;
    statuses.push([what, res.status, res.body?.error?.code]);
  };
  for (let round = 0; round < 3; round++) {
    for (const id of HOSTILE_IDS) await note(`product ${id}`, rawGet(`${base}/products/${id}`, key));
    for (const q of ['%00', '..', '%ED%A0%80', '*', 'x'.repeat(250), '%E0%A4%A'])
      await note(`search ${q}`, svc.call('GET', `${base}/products?query=${q}`, { key }));
    await note('cursor', svc.call('GET', `${base}/products?cursor=999999999`, { key }));
    for (const url of [
      'https://shop.sandbox-supplier.test/p/SBX-P999999999',
      'https://shop.sandbox-supplier.test/p/..',
      'https://shop.sandbox-supplier.test/p/%2e%2e',
      'javascript:alert(1)',
    ]) {
      await note(`resolve ${url}`, svc.call('POST', `${base}/products/resolve-url`, { key, body: { url } }));
    }
    for (const supplierProductId of ['..', '.', 'SBX-P999999999', '\udfff\ud800', 'a/b', 'a\u0000b']) {
      await note(
        `preview ${JSON.stringify(supplierProductId)}`,
        svc.call('POST', `${base}/import/preview`, { key, body: { products: [{ supplierProductId }] } }),
      );
    }
    await note(
      'preview variant',
      svc.call('POST', `${base}/import/preview`, {
        key,
        body: { products: [{ supplierProductId: shop.products[0].supplierProductId, variantIds: ['..', 'SBX-V0'] }] },
      }),
    );
    await note(
      'link unknown',
      svc.call('POST', `/api/store-suppliers/${shop.storeId}/links`, {
        key,
        body: {
          productId: shop.products[0].productId,
          connectionId: shop.connId,
          supplierProductId: 'SBX-P999999999',
          variants: [{ storeVariantId: shop.products[0].variantId, supplierVariantId: 'SBX-V0' }],
        },
      }),
    );
    await note('balance', svc.call('GET', `${base}/balance`, { key }));
  }
  if (process.env.SHOW_STATUSES) console.log(JSON.stringify(statuses.slice(0, statuses.length / 3)));
  expect(statuses.filter(([, status]) => status >= 500)).toEqual([]);
  // Unknown records are the caller's 404s, not a broken supplier.
  expect(statuses.find(([what]) => what === 'product SBX-P999999999')).toEqual(['product SBX-P999999999', 404, 'notFound']);
  for (const id of ['.', '..', '%2e', 'a%2Fb']) expect(statuses.find(([what]) => what === `product ${id}`)).toEqual([`product ${id}`, 400, 'validationFailed']);
  expect(await circuit()).toEqual({ failures: 0, openUntil: null, isCircuitOpen: false });

  const order = await placeOrder(svc, shop);
  const res = await submit(svc, shop, order.id);
  expect(res.status).toBe(200);
  expect(res.body.result).toMatchObject({ status: 'submitted', reviewReason: null });
  expect((await received(sandbox, res.body.result.supplierOrderNumber)).count(res.body.result.supplierOrderNumber)).toBe(1);
});

test('a real supplier fault still counts: two 5xx answers open the circuit', async () => {
  await sandbox.control('POST', '/faults', { failNext: 2 });
  try {
    for (let i = 0; i < 2; i++) await svc.call('GET', `/api/store-suppliers/${shop.storeId}/${shop.connId}/balance`, { key: shop.owner.key });
  } finally {
    await sandbox.control('DELETE', '/faults');
  }
  expect((await circuit()).isCircuitOpen).toBe(true);
});

leakScanTest();
