/**
 * The settle phase: the faults are cleared and every process is up; the shoppers stop; the merchant, the suppliers
 * and the provider carry on (parts still to send or pay, paid orders to ship, notifications to resend) until nothing
 * is left to drain, or until SOAK_SETTLE_SECONDS. Then the invariants are checked, whatever was left.
 */
import { sleep } from './api';
import type { Deployment } from './deployments';
import { eventsOwed } from './invariants/events';
import { SETTLED } from './invariants/parts';
import type { ManualDispatch } from './merchant';
import { Gathered, gather, ordersAtSuppliers } from './records';
import type { Suppliers } from './programs';
import type { Shoppers } from './shoppers';
import type { Store } from './world';

export interface Settled {
  seconds: number;
  drained: boolean;
  /** What was still left when it stopped waiting (empty when drained). */
  left: string[];
}

async function waiting(d: Deployment): Promise<number> {
  const r = await d.reader.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pgboss.job WHERE name LIKE 'dispatch.%' AND state IN ('created', 'retry', 'active')`,
  );
  return r.rows[0].n;
}

async function left(g: Gathered, stores: Store[], deployments: Deployment[], shoppers: Shoppers, dispatch: ManualDispatch): Promise<string[]> {
  const out: string[] = [];
  const open = [...g.supplierOrders.values()].filter((so) => !SETTLED.has(so.status));
  if (open.length) out.push(`${open.length} supplier orders not final or paused (${[...new Set(open.map((so) => so.status))].join(', ')})`);
  const unshipped = ordersAtSuppliers(g).filter((o) => o.paid && o.live && !/ship|deliver|WAIT_BUYER|FINISH|fulfilled|archived/i.test(o.status));
  if (unshipped.length) out.push(`${unshipped.length} paid orders not yet shipped at the suppliers`);
  if (dispatch.pending) out.push(`${dispatch.pending} parts still to send or pay by hand`);
  if (shoppers.undelivered()) out.push(`${shoppers.undelivered()} payment events the provider has not delivered`);
  for (const d of deployments) {
    const jobs = await waiting(d);
    if (jobs) out.push(`${d.name}: ${jobs} dispatch jobs waiting or running`);
  }
  const owed = await eventsOwed(stores);
  if (owed) out.push(`${owed} events not yet accepted by their receivers`);
  return out;
}

export async function settle(
  s: Suppliers,
  stores: Store[],
  deployments: Deployment[],
  shoppers: Shoppers,
  dispatch: ManualDispatch,
  boundSeconds: number,
): Promise<Settled> {
  const started = Date.now();
  for (const d of deployments) for (const p of d.processes) await p.untilReady(boundSeconds * 1000);
  let last: string[] = [];
  for (;;) {
    try {
      last = await left(await gather(s, stores), stores, deployments, shoppers, dispatch);
    } catch (err) {
      last = [`could not look: ${err instanceof Error ? err.message : String(err)}`];
    }
    const seconds = Math.round((Date.now() - started) / 1000);
    if (!last.length) return { seconds, drained: true, left: [] };
    if (seconds >= boundSeconds) return { seconds, drained: false, left: last };
    if (seconds % 15 < 5) process.stderr.write(`soak: settling (${seconds} s): ${last.join('; ')}\n`);
    await sleep(5000);
  }
}
