/** Import › Get Job, and the Import Job picker that offers the store's jobs. */
import { recordSearch } from '../../../nodes/StoreSuppliers/methods';
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { loadOptionsContext, rl } from '../support/context';
import { leakScanTest, runNode } from '../support/world';
import { importFile } from './setup';

const { s, creds, params, base } = importFile({ job: true });

test('reads the progress of a background import', async () => {
  const job = await runNode(creds(), params({ operation: 'getJob', jobId: s.shop.jobId }));
  expectSent(job.rec.last(), { method: 'GET', path: `${base()}/imports/${s.shop.jobId}`, body: undefined, status: 200 }, creds());
  expect(job.json[0]).toMatchObject({ id: s.shop.jobId, total: 51, connectionId: s.shop.connId });
  expectPaired(job.out, [0]);
});

test('the Import Job picker offers the job', async () => {
  const picker = loadOptionsContext({ credentials: creds(), parameters: { store: rl(s.shop.storeId, 'list') } });
  const offered = await recordSearch.searchImportJobs.call(picker.ctx);
  expect(offered.results.map((r) => r.value)).toContain(s.shop.jobId);
});

test('Continue On Fail: an unknown job is an error item paired with it', async () => {
  const { out } = await runEachItem(creds(), params({ operation: 'getJob', jobId: (i: number) => rl([MISSING_ID, s.shop.jobId][i], 'list') }), 2);
  expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[notFound\]$/)));
  expect(out[1]).toMatchObject({ json: { id: s.shop.jobId }, pairedItem: { item: 1 } });
});

leakScanTest(s);
