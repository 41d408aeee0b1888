/**
 * The request-pipeline and dispatch subset through PgBouncer in transaction mode in front of a Patroni cluster
 * (jest.pooled.config.js; issue 56, item 3): the cluster is started here (bench/soak/patroni.ts, built into dist), the
 * usual global setup then makes its migrated template on it through HAProxy, and every test service gets PgBouncer's
 * address as DATABASE_URL and HAProxy's as DATABASE_SESSION_URL (harness.ts, TEST_POOLER_PORT).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import globalSetup from './global-setup.mjs';

export default async function pooledSetup() {
  const { PatroniCluster } = createRequire(import.meta.url)(path.resolve('dist/bench/soak/patroni.js'));
  const cluster = await PatroniCluster.start({ synchronous: true, pgbouncer: true });
  globalThis.__STORE_SUPPLIERS_CLUSTER__ = cluster;
  process.env.DATABASE_URL = cluster.directUrl();
  process.env.TEST_POOLER_PORT = String(cluster.bouncerPort);
  await globalSetup();
}
