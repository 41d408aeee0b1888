/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * The Patroni cluster for the drills (test/cluster, their own jest set: jest.cluster.config.js): three Patroni members
 * on Debian's PostgreSQL, etcd, HAProxy on /primary, PgBouncer when asked (bench/soak/patroni.ts, which the soak
 * shares). Installed by .ci/run as PostgreSQL is. A drill makes faults to processes; Patroni alone elects a leader.
 */
import { Pool } from 'pg';
import { type ClusterOptions, PatroniCluster } from '../../bench/soak/patroni';

export { PatroniCluster };

/** A cluster with one empty database `name` on it, made through HAProxy's primary. */
export async function startCluster(name: string, opts: ClusterOptions = {}): Promise<PatroniCluster> {
  const cluster = await PatroniCluster.start(opts);
  await rowsAt(cluster.directUrl(), `CREATE DATABASE ${name}`).catch(async (err) => {
    await cluster.destroy();
    throw err;
  });
  return cluster;
}

/** Rows of one query on one server (a member directly, or through HAProxy), on a connection of its own. */
export async function rowsAt<T = any>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const pool = new Pool({ connectionString: url, max: 1 });
  pool.on('error', () => undefined);
  try {
    return (await pool.query(sql, params)).rows as T[];
  } finally {
    await pool.end();
  }
}
