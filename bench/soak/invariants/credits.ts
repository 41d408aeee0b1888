/**
 * The credit ledger equal to the charged calls: the soak counted what it asked for that costs credits (connect 5,
 * import 2 per product imported, send a part 3 per supplier order made), each call under a request id of its own,
 * which the service keeps on its ledger rows (read-only). Per request the ledger's net charge must be what the call
 * did: its price when answered 2xx with the work done, nothing when refused; an unanswered call is judged by what it
 * left behind (its probe, over the API). A part's sends are judged together: however many submits it took, one
 * supplier order, 3 credits. And each account's balance must be what was granted less what the calls cost.
 *
 * Credits charged before a call's work are held until the call ends (docs/decisions.md, "Credits"); a call whose API
 * process was killed leaves its hold to the sweep, which refunds what the work did not spend once the lease lapses.
 * So the check first waits (bounded) for every hold of the soak's accounts to be settled, and a hold still standing
 * is a failure: after it, the ledger is exact, with no allowance for credits in flight.
 */
import type { ChargedCall } from '../api';
import type { ManualDispatch } from '../merchant';
import type { Gathered } from '../records';
import { CREDITS_GRANTED, Store } from '../world';
import { Verdict, verdict } from './verdict';

const PRICED = ['supplierConnection.connect', 'supplierProduct.import', 'productLink.create', 'storeProduct.create', 'supplierOrder.send'];
const SIGN_UP_CREDITS = 100;
/** How long the check waits for the sweep: a few leases of the soak's CREDIT_HOLD_LEASE_SECONDS. */
const HOLDS_SETTLE_MS = 60_000;

interface HoldRow {
  account_id: string;
  request_id: string | null;
  action: string;
  units: number;
  units_spent: number;
  lease_until: Date;
}

/** Waits until no hold of the accounts stands; answers a failure line for each still standing at the bound. */
async function holdsSettled(stores: Store[]): Promise<string[]> {
  const deadline = Date.now() + HOLDS_SETTLE_MS;
  for (;;) {
    const standing: HoldRow[] = [];
    for (const d of new Set(stores.map((s) => s.deployment))) {
      const accounts = stores.filter((s) => s.deployment === d).map((s) => s.owner.accountId);
      const r = await d.reader.query<HoldRow>(
        'SELECT account_id, request_id, action, units, units_spent, lease_until FROM credit_holds WHERE account_id = ANY($1::uuid[])',
        [accounts],
      );
      standing.push(...r.rows);
    }
    if (!standing.length) return [];
    if (Date.now() > deadline) {
      return standing.map(
        (h) =>
          `credits held for request ${h.request_id} (${h.action}, ${h.units} units, ${h.units_spent} spent) were never settled: its lease ended ${h.lease_until.toISOString()}`,
      );
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

interface LedgerRow {
  account_id: string;
  action: string;
  amount: number;
  request_id: string | null;
}

export async function creditLedgerMatches(stores: Store[], dispatch: ManualDispatch, g: Gathered): Promise<Verdict> {
  const failures: string[] = await holdsSettled(stores);
  const net = new Map<string, { amount: number; rows: string[] }>();
  const byAccount = new Map<string, number>();
  for (const d of new Set(stores.map((s) => s.deployment))) {
    const accounts = stores.filter((s) => s.deployment === d).map((s) => s.owner.accountId);
    const r = await d.reader.query<LedgerRow>(
      `SELECT account_id, action, amount, request_id FROM credit_ledger WHERE account_id = ANY($1::uuid[]) ORDER BY id`,
      [accounts],
    );
    for (const row of r.rows) {
      if (!PRICED.includes(row.action.replace(/\.refund$/, ''))) continue;
      byAccount.set(row.account_id, (byAccount.get(row.account_id) ?? 0) - row.amount);
      const key = row.request_id ?? '(no request id)';
      const e = net.get(key) ?? { amount: 0, rows: [] };
      e.amount -= row.amount;
      e.rows.push(`${row.action} ${row.amount}`);
      net.set(key, e);
    }
  }
  const ledgerSays = (id: string) => {
    const e = net.get(id);
    return e ? `the ledger has ${e.rows.join(', ')} (net ${e.amount})` : 'the ledger has no row for it';
  };
  const counted = new Set<string>();
  const owed = new Map<string, number>();
  const calls: ChargedCall[] = stores.flatMap((s) => s.api.book).filter((c, i, all) => all.indexOf(c) === i);
  for (const c of calls) {
    counted.add(c.requestId);
    const expected = c.expected ?? (c.probe ? ((await c.probe()) ? c.price : 0) : null);
    owed.set(c.accountId, (owed.get(c.accountId) ?? 0) + (expected ?? 0));
    const got = net.get(c.requestId)?.amount ?? 0;
    if (expected === null) failures.push(`request ${c.requestId} (${c.what}) got no answer and has no probe; ${ledgerSays(c.requestId)}`);
    else if (got !== expected)
      failures.push(
        `request ${c.requestId} (${c.what}) was answered ${c.status || 'nothing'}${c.expected === null ? ` and its work was ${expected ? 'done' : 'not done'}` : ''}: the soak counts ${expected} credits, ${ledgerSays(c.requestId)}`,
      );
  }
  for (const [bookKey, book] of dispatch.submitsByPart) {
    for (const id of book.requestIds) counted.add(id);
    const [orderId, partKey] = bookKey.split(/:(?=supplier:)/);
    const made = [...g.supplierOrders.values()].some((so) => so.orderId === orderId && so.fulfilmentGroupKey === partKey);
    const got = book.requestIds.reduce((n, id) => n + (net.get(id)?.amount ?? 0), 0);
    owed.set(book.order.store.owner.accountId, (owed.get(book.order.store.owner.accountId) ?? 0) + (made ? 3 : 0));
    if (got !== (made ? 3 : 0)) {
      failures.push(
        `order ${orderId}, part ${partKey} (store ${book.order.store.index}) was sent by ${book.requestIds.length} submit requests (${book.requestIds.join(', ')}) and ${made ? 'has one supplier order: 3 credits' : 'has no supplier order: 0 credits'}; the ledger charged them ${got} in all`,
      );
    }
  }
  for (const [id, e] of net)
    if (!counted.has(id)) failures.push(`the ledger charged ${e.amount} (${e.rows.join(', ')}) under request ${id}, which the soak never sent`);
  for (const store of stores) {
    const a = await store.api.patiently<{ result: { credits: { available: number } } }>('GET', '/api/api-key/current', { key: store.owner.key });
    const want = SIGN_UP_CREDITS + CREDITS_GRANTED - (owed.get(store.owner.accountId) ?? 0);
    if (a.status !== 200) failures.push(`store ${store.index}'s balance could not be read: ${a.status}`);
    else if (a.body.result.credits.available !== want) {
      failures.push(
        `account ${store.owner.accountId} (store ${store.index}) has ${a.body.result.credits.available} credits; granted ${SIGN_UP_CREDITS + CREDITS_GRANTED}, the soak's calls cost ${owed.get(store.owner.accountId) ?? 0}, the ledger's priced rows ${byAccount.get(store.owner.accountId) ?? 0}`,
      );
    }
  }
  return verdict(
    'credit ledger equal to the charged calls',
    `${calls.length} charged calls and ${dispatch.submitsByPart.size} parts sent by hand, against ${net.size} request ids on the ledger`,
    failures,
  );
}
