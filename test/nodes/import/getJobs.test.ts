/** Import › Get Many Jobs. */
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { leakScanTest, runNode } from '../support/world';
import { importFile } from './setup';

const { s, creds, params, base } = importFile({ job: true });

test("lists the store's jobs, newest first, through the pager (pages of 100 for Return All, of the limit otherwise)", async () => {
  const jobs = await runNode(creds(), params({ operation: 'getJobs', returnAll: true }));
  expectSent(jobs.rec.last(), { method: 'GET', path: `${base()}/imports`, query: { pageSize: '100' }, body: undefined, status: 200 }, creds());
  expect(jobs.json.map((j) => j.id)).toEqual([s.shop.jobId]);
  expectPaired(jobs.out, [0]);
  const one = await runNode(creds(), params({ operation: 'getJobs', returnAll: false, limit: 1 }));
  expect(one.rec.last().query).toEqual({ pageSize: '1' });
  expect(one.json.map((j) => j.id)).toEqual([s.shop.jobId]);
});

test('Continue On Fail: an unknown store is an error item paired with it', async () => {
  const { out } = await runEachItem(creds(), params({ operation: 'getJobs', returnAll: true, store: (i: number) => rl([MISSING_ID, s.shop.storeId][i]) }), 2);
  expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[notFound\]$/)));
  expect(out[1]).toMatchObject({ json: { id: s.shop.jobId }, pairedItem: { item: 1 } });
});

leakScanTest(s);
