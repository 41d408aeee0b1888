/**
 * What the service's Postgres backends were doing while dispatch ran: pg_stat_activity sampled every few ms (its
 * wait event, or none: working), with the relation of any row lock a waiting backend holds or waits for (pg_locks'
 * `tuple` locks), and each sample's statement (query_id, the same id pg_stat_statements keys its rows by).
 */
import { Client } from 'pg';

/** One backend's state in one sample: `work` (no wait event), or the wait, with the relation of its row lock if any. */
const SAMPLE = `
  SELECT a.query_id::text AS query_id,
         CASE WHEN a.wait_event IS NULL THEN 'work' ELSE a.wait_event_type || ':' || a.wait_event END AS what,
         (SELECT string_agg(DISTINCT l.relation::regclass::text, ',') FROM pg_locks l WHERE l.pid = a.pid AND l.locktype = 'tuple') AS rel
    FROM pg_stat_activity a
   WHERE a.usename = $1 AND a.state = 'active' AND a.datname = current_database() AND a.pid <> pg_backend_pid()`;

export interface Waits {
  samples: number;
  /** Backend-samples (active backends of the role, summed over samples) by what they were doing. */
  byWhat: Map<string, number>;
  /** The same per statement (query_id). */
  byStatement: Map<string, Map<string, number>>;
}

/** A wait named with the relation of its row lock (`Lock:transactionid on profit_sums`), where it has one. */
const named = (what: string, rel: string | null) => (rel && what.startsWith('Lock:') ? `${what} on ${rel}` : what);

/** Samples the role's active backends every `everyMs` until `stop`. */
export async function sampleWaits(url: string, role: string, everyMs = 25): Promise<{ stop(): Promise<Waits> }> {
  const c = new Client({ connectionString: url });
  await c.connect();
  const w: Waits = { samples: 0, byWhat: new Map(), byStatement: new Map() };
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = Date.now();
      const { rows } = await c.query<{ query_id: string | null; what: string; rel: string | null }>(SAMPLE, [role]);
      w.samples++;
      for (const r of rows) {
        const what = named(r.what, r.rel);
        w.byWhat.set(what, (w.byWhat.get(what) ?? 0) + 1);
        const q = r.query_id ?? 'none';
        const m = w.byStatement.get(q) ?? new Map<string, number>();
        m.set(what, (m.get(what) ?? 0) + 1);
        w.byStatement.set(q, m);
      }
      await new Promise((r) => setTimeout(r, Math.max(0, everyMs - (Date.now() - t0))));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      await c.end();
      return w;
    },
  };
}

const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
const pct = (x: number, of: number) => `${((100 * x) / Math.max(1, of)).toFixed(0)} %`;

/** Waits for another transaction's row: its transaction to end (`transactionid`), or its turn at the row (`tuple`). */
const onRow = (k: string) => k.startsWith('Lock:transactionid') || k.startsWith('Lock:tuple');
/**
 * Waits of a commit, after the statement's execution: the NOTIFY queue's lock (a heavyweight lock on an object, taken
 * at commit by a transaction that notified and held until it ends) and the WAL's flush.
 */
export const atCommit = (k: string) => k === 'Lock:object' || k === 'IO:WalSync' || k === 'IO:WalWrite' || k === 'LWLock:WALWrite';

/**
 * A statement's samples in shares: of its execution (what pg_stat_statements times), the part running (`work`),
 * waiting, and waiting on a row lock; and its commit's waits, as a share of the same execution (an autocommit
 * statement's backend still shows the statement while it commits, which its execution time does not count).
 */
export function waitShares(w: Waits, queryId: string): { samples: number; waiting: number; rowLock: number; commit: number } {
  const m = w.byStatement.get(queryId);
  if (!m) return { samples: 0, waiting: 0, rowLock: 0, commit: 0 };
  const count = (f: (k: string) => boolean) => [...m.entries()].filter(([k]) => f(k)).reduce((a, [, v]) => a + v, 0);
  const running = Math.max(
    1,
    count((k) => !atCommit(k)),
  );
  return {
    samples: total(m),
    waiting: count((k) => k !== 'work' && !atCommit(k)) / running,
    rowLock: count(onRow) / running,
    commit: count(atCommit) / running,
  };
}

/** "8.06: 0.56 work, 7.50 waiting (0.75 on a row lock); commit +2.10": a statement's execution per call, split by its samples. */
export function splitOf(w: Waits, queryId: string, msPerCall: number): string {
  const s = waitShares(w, queryId);
  const f = (x: number) => (msPerCall * x).toFixed(2);
  return s.samples < 5
    ? `${msPerCall.toFixed(2)} (${s.samples} samples)`
    : `${msPerCall.toFixed(2)}: ${f(1 - s.waiting)} work, ${f(s.waiting)} waiting (${f(s.rowLock)} on a row lock); its commit waited ${f(s.commit)} more`;
}

/** The table of what the backends were doing: each wait (or work), its backend-samples and share, and the mean busy backends. */
export function waitLines(w: Waits): string[] {
  const all = total(w.byWhat);
  const rows = [...w.byWhat.entries()].sort((a, b) => b[1] - a[1]);
  return [
    `| What the backend was doing (wait event; \`work\`: none, running) | Backend-samples | Share | Backends at once (mean) |`,
    '|---|---|---|---|',
    ...rows.map(
      ([k, n]) => `| ${k}${atCommit(k) ? ' (at commit)' : ''} | ${n.toLocaleString('en')} | ${pct(n, all)} | ${(n / Math.max(1, w.samples)).toFixed(2)} |`,
    ),
    `| **All active backends of the service** | ${all.toLocaleString('en')} | 100 % | ${(all / Math.max(1, w.samples)).toFixed(2)} |`,
  ];
}
