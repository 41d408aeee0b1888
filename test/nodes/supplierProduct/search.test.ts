/** Supplier Product › Search: cursor paging through the one pager. */
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { leakScanTest, runNode } from '../support/world';
import { supplierProductFile } from './setup';

const { s, creds, onConnection, products } = supplierProductFile();

test('with a limit it asks for pages of min(limit, 100) and stops as soon as it has enough', async () => {
  const five = await runNode(creds(), onConnection({ operation: 'search', query: '', returnAll: false, limit: 5 }));
  expect(five.rec.requests).toHaveLength(1);
  expectSent(five.rec.last(), { method: 'GET', path: products(), query: { pageSize: '5' }, body: undefined, status: 200 }, creds());
  expect(five.json).toHaveLength(5);
  expectPaired(five.out, [0, 0, 0, 0, 0]);

  const many = await runNode(creds(), onConnection({ operation: 'search', query: '', returnAll: false, limit: 150 }));
  expect(many.rec.requests.map((r) => r.query.pageSize)).toEqual(['100', '100']);
  expect(many.rec.requests[0].query.cursor).toBeUndefined();
  expect(many.rec.requests[1].query.cursor).toEqual(expect.any(String));
  expect(many.json).toHaveLength(150);
  expect(new Set(many.json.map((p) => p.id)).size).toBe(150);
});

test('with Return All it follows nextCursor until hasMore is false, with the same query on every page', async () => {
  const { json, rec } = await runNode(creds(), onConnection({ operation: 'search', query: 'a', returnAll: true }));
  expect(rec.requests.length).toBeGreaterThan(1);
  expect(rec.requests.every((r) => r.query.query === 'a' && r.query.pageSize === '100')).toBe(true);
  for (let i = 1; i < rec.requests.length; i++) expect(rec.requests[i].query.cursor).toEqual(expect.any(String));
  const direct = await s.world.svc.call('GET', `${products()}?query=a&pageSize=1`, { key: s.shop.owner.key });
  expect(json).toHaveLength(direct.body.result.pagination.totalCount);
  expect(new Set(json.map((p) => p.id)).size).toBe(json.length);
  expect(json.every((p) => typeof p.title === 'string' && Array.isArray(p.variants))).toBe(true);
});

test('Continue On Fail: an unknown connection is an error item paired with it', async () => {
  const { out } = await runEachItem(
    creds(),
    onConnection({ operation: 'search', query: '', returnAll: false, limit: 1, connection: (i: number) => rl([MISSING_ID, s.shop.connId][i]) }),
    2,
  );
  expect(out[0]).toEqual(errorItem(0, 'The connection was not found. [notFound]'));
  expect(out[1]).toMatchObject({ json: { id: expect.any(String), variants: expect.any(Array) }, pairedItem: { item: 1 } });
});

leakScanTest(s);
