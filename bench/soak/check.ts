/** Every invariant, checked once after the settle phase, in the order the summary reports them. */
import type { Deployment } from './deployments';
import { creditLedgerMatches } from './invariants/credits';
import { eventsDelivered } from './invariants/events';
import { noJobPastItsTimeout } from './invariants/jobs';
import { connectionsFlat, rssFlat } from './invariants/leaks';
import { noDoublePayment, noDuplicateSupplierOrders, noShopperCapturedTwice } from './invariants/money';
import { confirmedPartsSettled } from './invariants/parts';
import type { Verdict } from './invariants/verdict';
import type { ManualDispatch } from './merchant';
import type { Monitor } from './monitor';
import type { Suppliers } from './programs';
import { gather } from './records';
import { ReroutingLoad, reroutingInvariants } from './rerouting';
import type { Shoppers } from './shoppers';
import type { Store } from './world';
import type { ClaimsLoad } from './claims';
import { noClaimOrReshipTwice } from './invariants/claims';

export interface Checked {
  stores: Store[];
  deployments: Deployment[];
  suppliers: Suppliers;
  shoppers: Shoppers;
  dispatch: ManualDispatch;
  monitor: Monitor;
  /** The last half of the run (the load phase), in ms since the epoch. */
  lastHalf: { from: number; to: number };
  /** The rerouting load: what it asked for, and its samples during the run. */
  rerouting?: ReroutingLoad;
  /** The claims the merchant opened after the delivery exceptions (issue 54). */
  claims?: ClaimsLoad;
}

/** Runs one check; a check that cannot run is a broken invariant saying why, not a crash of the soak. */
async function attempt(names: string | string[], run: () => Promise<Verdict | Verdict[]>): Promise<Verdict[]> {
  try {
    const v = await run();
    return Array.isArray(v) ? v : [v];
  } catch (err) {
    const why = err instanceof Error ? (err.stack ?? err.message) : String(err);
    return [names].flat().map((name) => ({ name, held: false, checked: 'could not be checked', failures: [`${name}: the check failed: ${why}`] }));
  }
}

export async function checkInvariants(c: Checked): Promise<Verdict[]> {
  const g = await gather(c.suppliers, c.stores);
  const orders = c.shoppers.orders;
  return [
    ...(await attempt(['no duplicate supplier order per number', 'no duplicate supplier order per order part'], async () => noDuplicateSupplierOrders(g))),
    ...(await attempt('no double payment at any supplier', async () => noDoublePayment(g))),
    ...(await attempt('no shopper captured twice', () => noShopperCapturedTwice(c.suppliers, orders))),
    ...(await attempt('every confirmed part final or paused', () => confirmedPartsSettled(g, orders))),
    ...(await attempt(['every event delivered at least once', 'events in order per resource'], () => eventsDelivered(c.stores))),
    ...(await attempt('credit ledger equal to the charged calls', () => creditLedgerMatches(c.stores, c.dispatch, g))),
    ...(await attempt('no job older than its time-out', () => noJobPastItsTimeout(c.deployments))),
    ...(await attempt('RSS flat over the last half', async () => rssFlat(c.monitor.series, c.lastHalf))),
    ...(await attempt('open connections flat over the last half', async () => connectionsFlat(c.monitor.series, c.deployments, c.lastHalf))),
    ...(await attempt('no claim sent twice, no reship created twice', async () => {
      await c.claims?.end();
      return noClaimOrReshipTwice(c.claims?.opened ?? [], c.suppliers);
    })),
    ...(await attempt(
      [
        'never two live orders for the same items across suppliers',
        'every reroute asked for ended rerouted or paused',
        'no part moved to the same alternate twice',
      ],
      () => reroutingInvariants(c.stores, c.rerouting, c.suppliers),
    )),
  ];
}
