/** Report › Get Profit. */
import { rl } from '../support/context';
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { leakScanTest, runNode } from '../support/world';
import { reportFile } from './setup';

const { s, creds, params, base } = reportFile();
const today = () => new Date().toISOString().slice(0, 10);

test("one item: the store's totals and every row by product (all pages read), equal to the parts' own profit", async () => {
  const { json, out, rec } = await runNode(creds(), params({ operation: 'getProfit', from: today(), to: today(), groupBy: 'product' }));
  expectSent(
    rec.last(),
    {
      method: 'GET',
      path: `${base()}/reports/profit`,
      query: { from: today(), to: today(), groupBy: 'product', pageSize: '100' },
      body: undefined,
      status: 200,
    },
    creds(),
  );
  const revenueMinor = s.shop.profits.reduce((a: number, p: any) => a + p.revenueMinor, 0);
  const landedCostMinor = s.shop.profits.reduce((a: number, p: any) => a + p.landedCostMinor, 0);
  expect(json).toEqual([
    {
      currency: 'USD',
      from: today(),
      to: today(),
      groupBy: 'product',
      totals: {
        orders: 2,
        parts: 2,
        revenueMinor,
        landedCostMinor,
        paymentFeeMinor: 0,
        supplierCreditMinor: 0,
        refundMinor: 0,
        resultMinor: revenueMinor - landedCostMinor,
        incompleteParts: 0,
      },
      items: s.shop.products
        .map((p) => p.productId)
        .sort()
        .map((key) => expect.objectContaining({ key, orders: 1, parts: 1 })),
    },
  ]);
  expectPaired(out, [0]);
});

test("a bad range is the service's validationFailed; Continue On Fail keeps the other item's report", async () => {
  const { out, rec } = await runEachItem(
    creds(),
    params({ operation: 'getProfit', from: today(), to: (i: number) => ['2000-01-01', today()][i], groupBy: 'day' }),
    2,
  );
  expect(rec.requests.map((r) => r.status)).toEqual([400, 200]);
  expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[validationFailed\]$/)));
  expect(out[1]).toMatchObject({ json: { groupBy: 'day', items: [expect.objectContaining({ key: today() })] }, pairedItem: { item: 1 } });
  const missing = await runEachItem(creds(), params({ operation: 'getProfit', store: rl(MISSING_ID), from: today(), to: today(), groupBy: 'day' }), 1);
  expect(missing.out[0]).toEqual(errorItem(0, expect.stringMatching(/\[notFound\]$/)));
});

leakScanTest(s);
