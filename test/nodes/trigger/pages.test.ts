/** The trigger reads every page of the orders waiting for review before it emits anything. */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { StoreSuppliersTrigger } from '../../../nodes/StoreSuppliersTrigger/StoreSuppliersTrigger.node';
import { openShop, placeOrder, submit } from '../../support/orders';
import { pollContext, rl } from '../support/context';
import { credentialsOf, leakScanTest, setUp } from '../support/world';

const PAUSED = 103;

/**
 * More paused orders than one page holds (100). A cost limit of one cent stops each one with costAboveLimit
 * as it is submitted, before anything is sent to the supplier: every submit answers the paused order.
 */
const s = setUp('trigger', async (w) => {
  const shop = await openShop(w.svc, w.sandbox, { page: 12, products: 3, automation: { costLimit: { amountMinor: 1, currency: 'USD' } } });
  let next = 0;
  const worker = async () => {
    while (next < PAUSED) {
      const n = next++;
      const order = await placeOrder(w.svc, shop, { productIndex: n % 3 });
      const res = await submit(w.svc, shop, order.id, { payNow: true });
      if (res.status >= 300 || res.body.result.status !== 'needsReview') throw new Error(`order ${n}: submit answered ${res.status} ${res.text}`);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return shop;
});

const poll = (state: IDataObject) =>
  pollContext({
    credentials: credentialsOf(s.world.svc, s.shop.owner.key),
    parameters: { store: rl(s.shop.storeId), firstActivation: 'emitWaiting', filters: {} },
    staticData: state,
  });

test('a poll follows nextCursor through every page of needsReview=true, then emits every waiting order once', async () => {
  const waiting = await s.world.svc.call('GET', `/api/store-suppliers/${s.shop.storeId}/orders?needsReview=true&pageSize=1`, { key: s.shop.owner.key });
  expect(waiting.body.result.pagination.totalCount).toBe(PAUSED);
  const state: IDataObject = {};
  const p = poll(state);
  const out = (await new StoreSuppliersTrigger().poll!.call(p.ctx)) as INodeExecutionData[][];
  expect(p.rec.requests).toHaveLength(2);
  expect(p.rec.requests.map((r) => r.query.pageSize)).toEqual(['100', '100']);
  expect(p.rec.requests.every((r) => r.query.needsReview === 'true')).toBe(true);
  expect(p.rec.requests[1].query.cursor).toEqual(expect.any(String));
  const ids = out[0].map((i) => i.json._id);
  expect(ids).toHaveLength(PAUSED);
  expect(new Set(ids).size).toBe(PAUSED);
  expect(state.keys as string[]).toHaveLength(PAUSED);

  const again = poll(state);
  expect(await new StoreSuppliersTrigger().poll!.call(again.ctx)).toBeNull();
  expect(again.rec.requests).toHaveLength(2);
});

leakScanTest(s);
