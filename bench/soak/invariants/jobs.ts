/**
 * No job older than its time-out, from pg-boss's own table (read-only): no job still `active` past its expiry, or
 * past its heartbeat by more than the supervision interval allows (a worker killed under it must have its job
 * taken back), and none waiting (`created`, `retry`) two minutes past its start time after the settle phase.
 */
import { SERVICE_TUNING } from '../config';
import type { Deployment } from '../deployments';
import { Verdict, verdict } from './verdict';

interface JobRow {
  id: string;
  name: string;
  state: string;
  started_on: Date | null;
  start_after: Date;
  expire_seconds: number;
  heartbeat_on: Date | null;
  heartbeat_seconds: number | null;
  singleton_key: string | null;
  now: Date;
}

export async function noJobPastItsTimeout(deployments: Deployment[]): Promise<Verdict> {
  const failures: string[] = [];
  const slack = 2 * Number(SERVICE_TUNING.JOB_SUPERVISE_SECONDS) + 10;
  let jobs = 0;
  for (const d of deployments) {
    const total = await d.reader.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job`);
    jobs += total.rows[0].n;
    const r = await d.reader.query<JobRow>(
      `SELECT id, name, state, started_on, start_after, expire_seconds, heartbeat_on, heartbeat_seconds, singleton_key, now() AS now FROM pgboss.job
        WHERE (state = 'active' AND (started_on + (expire_seconds + $1) * interval '1 second' < now()
                                     OR (heartbeat_seconds IS NOT NULL AND coalesce(heartbeat_on, started_on) + (heartbeat_seconds + $1) * interval '1 second' < now())))
           OR (state IN ('created', 'retry') AND start_after < now() - interval '2 minutes')`,
      [slack],
    );
    for (const j of r.rows) {
      const age = (t: Date | null) => (t ? `${Math.round((j.now.getTime() - t.getTime()) / 1000)} s ago` : 'never');
      // What else holds its key: under the `stately` and `exclusive` policies a job of the same key in the way keeps it waiting.
      const same = j.singleton_key
        ? (
            await d.reader.query<JobRow>(
              `SELECT id, state, started_on, start_after, heartbeat_on, expire_seconds FROM pgboss.job WHERE name = $1 AND singleton_key = $2 AND id <> $3`,
              [j.name, j.singleton_key, j.id],
            )
          ).rows
        : [];
      failures.push(
        `${d.name}: job ${j.id} (${j.name}${j.singleton_key ? `, ${j.singleton_key}` : ''}) is ${j.state}: started ${age(j.started_on)}, due ${age(j.start_after)}, ` +
          `heartbeat ${age(j.heartbeat_on)}; its time-out is ${j.expire_seconds} s${j.heartbeat_seconds ? `, its heartbeat every ${j.heartbeat_seconds} s` : ''}` +
          `; other jobs of its key: ${same.map((o) => `${o.id} ${o.state} (started ${age(o.started_on)}, time-out ${o.expire_seconds} s)`).join(', ') || 'none'}`,
      );
    }
  }
  return verdict('no job older than its time-out', `${jobs} jobs in pg-boss's tables of ${deployments.length} deployment(s)`, failures);
}
