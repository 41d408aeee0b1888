/** The dispatch benchmark's breakdown per statement (pg_stat_statements), written as a section of docs/benchmarks.md. */
import type { Pool } from 'pg';
import { splitOf, type Waits, waitLines } from './dispatch-waits';

/** pg-boss's own statements: its schema's tables and functions, and the deferred foreign-key checks on its job table. */
const isPgBoss = (query: string) => /\bpgboss\b|"pgboss"/.test(query);

/**
 * Where a role's statements and Postgres's time went since pg_stat_statements was last reset: one row per
 * statement (calls, execution time, rows), per `units` of work, pg-boss's own named and summed. Execution time is
 * Postgres's wall time inside each statement (lock waits included), not CPU; the measured CPU stands beside it.
 */
async function statementBreakdown(db: Pool, role: string, units: number, unit: string, waits?: Waits): Promise<string[]> {
  const { rows } = await db.query<{ queryid: string; calls: string; ms: number; rows: string; query: string }>(
    `SELECT queryid::text AS queryid, calls, total_exec_time AS ms, rows, regexp_replace(query, '\\s+', ' ', 'g') AS query
       FROM pg_stat_statements s JOIN pg_roles r ON r.oid = s.userid
      WHERE r.rolname = $1 AND s.dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY total_exec_time DESC`,
    [role],
  );
  const all = rows.map((r) => ({ id: r.queryid, calls: Number(r.calls), ms: Number(r.ms), rows: Number(r.rows), query: r.query, boss: isPgBoss(r.query) }));
  const sum = (xs: typeof all, k: 'calls' | 'ms') => xs.reduce((s, x) => s + x[k], 0);
  const [calls, ms] = [sum(all, 'calls'), sum(all, 'ms')];
  const boss = all.filter((x) => x.boss);
  const per = (x: number, d = 3) => (x / Math.max(1, units)).toFixed(d);
  const pct = (x: number, of: number) => `${((100 * x) / Math.max(1e-9, of)).toFixed(0)} %`;
  const short = (q: string) => (q.length > 110 ? `${q.slice(0, 107)}…` : q).replace(/\|/g, '\\|').replace(/`/g, "'");
  const shown = all.filter((x, i) => i < 25 || x.calls / Math.max(1, units) >= 0.01);
  const rest = all.filter((x) => !shown.includes(x));
  // A statement's execution time split by its samples (bench/dispatch-waits.ts).
  const split = (x: (typeof all)[number]) => (waits ? ` ${splitOf(waits, x.id, x.ms / Math.max(1, x.calls))} |` : '');
  const [head, rule, blank] = waits ? [" Exec ms per call: work, waiting (from the samples), and the commit's waits after it |", '---|', ' |'] : ['', '', ''];
  return [
    `| Statement (normalised, shortened) | Whose | Calls | Calls per ${unit} | Exec ms | Exec ms per ${unit} |${head} Rows |`,
    `|---|---|---|---|---|---|${rule}---|`,
    ...shown.map(
      (x) =>
        `| \`${short(x.query)}\` | ${x.boss ? 'pg-boss' : 'ours'} | ${x.calls.toLocaleString('en')} | ${per(x.calls)} | ${Math.round(x.ms).toLocaleString('en')} | ${per(x.ms)} |${split(x)} ${x.rows.toLocaleString('en')} |`,
    ),
    ...(rest.length
      ? [
          `| ${rest.length} other statements | | ${sum(rest, 'calls').toLocaleString('en')} | ${per(sum(rest, 'calls'))} | ${Math.round(sum(rest, 'ms')).toLocaleString('en')} | ${per(sum(rest, 'ms'))} |${blank} |`,
        ]
      : []),
    `| **All** | | ${calls.toLocaleString('en')} | ${per(calls)} | ${Math.round(ms).toLocaleString('en')} | ${per(ms)} |${blank} |`,
    `| **pg-boss's own** (its schema; the deferred foreign-key check on each job inserted) | pg-boss | ${sum(boss, 'calls').toLocaleString('en')} (${pct(sum(boss, 'calls'), calls)}) | ${per(sum(boss, 'calls'))} | ${Math.round(sum(boss, 'ms')).toLocaleString('en')} (${pct(sum(boss, 'ms'), ms)}) | ${per(sum(boss, 'ms'))} |${blank} |`,
  ];
}

/** The section: what was counted, then the table. */
export async function dispatchStatements(
  db: Pool,
  role: string,
  parts: number,
  postgresMsPerPart: number,
  waits?: Waits,
): Promise<{ id: string; title: string; lines: string[] }> {
  return {
    id: 'dispatch-statements',
    title: 'Where the dispatch of 10,000 parts spent Postgres (per statement)',
    lines: [
      `pg_stat_statements over the 10,000-part dispatch above (reset just before its jobs were queued, read after the last part was sent), the service's database role only: every statement it ran meanwhile (the jobs, the runner's fetches, completions and heartbeats, the sweeper, and the events domain's loops, which run in the same process), with the 10,000 jobs' insert by the benchmark (made under the service's role, as a submit would). ` +
        `Execution time is Postgres's wall time inside each statement (waits on locks included), summed over concurrent backends, so it is a share, not CPU: the Postgres CPU measured over the same run was ${postgresMsPerPart} ms per part. The deferred foreign-key check pg-boss's job table runs at commit for every job inserted is counted as a statement of its own; it is pg-boss's.`,
      '',
      ...(await statementBreakdown(db, role, parts, 'part', waits)),
      '',
      ...(waits
        ? [
            `What the service's backends were doing meanwhile: pg_stat_activity sampled every 25 ms (${waits.samples.toLocaleString('en')} samples), each active backend of the service's role counted with its wait event (\`work\`: none, so running or about to), and a lock wait named with the table of the row lock the backend holds or waits for (pg_locks, \`tuple\`). ` +
              "A statement's execution time above is split in the same shares as its own samples (by query_id): waiting is the share in a wait event, of the samples taken while it ran. " +
              "An autocommit statement's backend still shows it while it commits, which pg_stat_statements does not time: samples in a commit's waits (the NOTIFY queue's lock, `Lock:object`, which a transaction that notified takes at commit and holds until it ends; the WAL's flush) are given apart, as time after the statement's.",
            '',
            ...waitLines(waits),
            '',
          ]
        : []),
    ],
  };
}
