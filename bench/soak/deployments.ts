/**
 * The two deployments the soak runs side by side, sharing the suppliers and the payment provider:
 *   - `own`: the service on a Postgres the soak starts (`DATABASE_URL`), one `--role api` process and SOAK_WORKERS
 *     `--role worker` processes;
 *   - `embedded`: `node dist/server/main.js` with no `DATABASE_URL` on a temporary DATA_DIR (the embedded default,
 *     one process starting its own Postgres), its bundled sandboxes off and pointed at the soak's, so that what
 *     the suppliers and the provider recorded outlives every kill of the service.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Pool } from 'pg';
import { Api } from './api';
import { SERVICE_TUNING, SoakConfig } from './config';
import { freePort } from '../free-port';
import { EmbeddedPostgresControl, OwnPostgres, readerPool, Restartable } from './postgres';
import { clusterTools, PatroniCluster } from './patroni';
import type { Suppliers } from './programs';
import { Supervised } from './supervisor';

export interface Deployment {
  name: 'own' | 'embedded';
  api: Api;
  /** Every service process of the deployment. */
  processes: Supervised[];
  /** The database, read-only, for what only it can tell (the outbox, the ledger, pg-boss's jobs, connections). */
  reader: Pool;
  database: Restartable;
  /** The database the service uses (for pg_stat_activity). */
  databaseName: string;
  /** Stops every process and the database; `keep`: leaves the data folders and says where they are. */
  stop(keep?: boolean): Promise<void>;
}

const kept = (line: string) => process.stderr.write(`soak: kept ${line}\n`);

export { freePort };

const operatorToken = () => `sso_soak-${crypto.randomBytes(24).toString('hex')}`;

/** What every process of either deployment is told about the soak's suppliers and provider. */
function supplierEnv(s: Suppliers): Record<string, string> {
  return {
    SANDBOX_SUPPLIER_URL: s.sandbox.baseUrl,
    SANDBOX_PAYMENTS_URL: s.payments.baseUrl,
    CJ_API_BASE_URL: s.cj.baseUrl,
    ALIEXPRESS_APP_KEY: s.aliexpress.appKey,
    ALIEXPRESS_APP_SECRET: s.aliexpress.appSecret,
    ALIEXPRESS_API_BASE_URL: s.aliexpress.baseUrl,
    PRINTFUL_API_BASE_URL: s.printful.baseUrl,
    EXCHANGE_RATES_URL: s.rates.dailyUrl,
  };
}

/** The environment without anything of the caller's that would change what the service is (a DATABASE_URL, secrets). */
function baseEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (
      /^(DATABASE_URL|APP_SECRET|APP_SECRET_PREVIOUS|OPERATOR_TOKEN|PUBLIC_BASE_URL|SEED_DEMO|SANDBOX_|EVENT_|DISPATCH_|SUPPLIER_|FAILPOINTS|DATA_DIR|EMBEDDED_PG_|PORT$|HOST$)/.test(
        name,
      )
    )
      delete env[name];
  }
  return env;
}

export async function ownDeployment(cfg: SoakConfig, suppliers: Suppliers): Promise<Deployment> {
  // With Patroni, etcd, HAProxy and PgBouncer at hand (Debian's, .ci/run installs them), a cluster of three behind
  // PgBouncer in transaction mode (the failover fault needs it); synchronous unless SOAK_CLUSTER_SYNC=0.
  const cluster = clusterTools(true);
  const pg: OwnPostgres | PatroniCluster = cluster
    ? await PatroniCluster.start({ synchronous: process.env.SOAK_CLUSTER_SYNC !== '0', password: 'soak', pgbouncer: true })
    : new OwnPostgres(await freePort());
  if (pg instanceof OwnPostgres) await pg.init();
  // What the service connects to: PgBouncer; its sessions (LISTEN, the migrations' lock) go to HAProxy directly.
  const url = pg instanceof PatroniCluster ? pg.url() : pg.url;
  const direct = pg instanceof PatroniCluster ? pg.directUrl() : pg.url;
  const port = await freePort();
  const token = operatorToken();
  const env: NodeJS.ProcessEnv = {
    ...baseEnv(),
    ...SERVICE_TUNING,
    ...supplierEnv(suppliers),
    DATABASE_URL: url,
    ...(pg instanceof PatroniCluster ? { DATABASE_SESSION_URL: direct } : {}),
    // Standbys: declared asynchronous, so writes, events and first orders wait for them, unless the service finds
    // the database synchronous itself (Patroni's synchronous_mode), which waits for them instead.
    DATABASE_REPLICATION: pg instanceof PatroniCluster ? 'asynchronous' : 'none',
    APP_SECRET: `soak-${crypto.randomBytes(24).toString('hex')}`,
    OPERATOR_TOKEN: token,
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'store-suppliers-soak-own-')),
    // Kept logs (SOAK_LOG_DIR) carry each standby check, to lay beside the servers' own logs after a failover.
    ...(process.env.SOAK_LOG_DIR ? { LOG_LEVEL: 'debug' } : {}),
  };
  const api = new Supervised('own api', 'api', env);
  const workers = Array.from({ length: cfg.workers }, (_, i) => new Supervised(`own worker ${i + 1}`, 'worker', env));
  const processes = [api, ...workers];
  try {
    for (const p of processes) await p.start();
  } catch (err) {
    for (const p of processes) await p.stop();
    await pg.destroy();
    throw err;
  }
  const reader = readerPool(direct);
  return {
    name: 'own',
    api: new Api(`http://127.0.0.1:${port}`, token),
    processes,
    reader,
    database: pg,
    databaseName: 'postgres',
    async stop(keep = false) {
      for (const p of processes) await p.stop();
      await reader.end().catch(() => undefined);
      if (keep) {
        await pg.stop();
        kept(`own: Postgres data ${pg.dataDir} (user postgres, password soak; start it with pg_ctl -D on any port), DATA_DIR ${env.DATA_DIR}`);
        return;
      }
      await pg.destroy();
      fs.rmSync(env.DATA_DIR!, { recursive: true, force: true });
    },
  };
}

export async function embeddedDeployment(suppliers: Suppliers): Promise<Deployment> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-suppliers-soak-embedded-'));
  // The OS user postgres must reach the data folder (as root): a folder under /tmp anyone may enter.
  fs.chmodSync(dataDir, 0o755);
  const [port, pgPort] = [await freePort(), await freePort()];
  const token = operatorToken();
  const env: NodeJS.ProcessEnv = {
    ...baseEnv(),
    ...SERVICE_TUNING,
    ...supplierEnv(suppliers),
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(pgPort),
    PORT: String(port),
    OPERATOR_TOKEN: token,
    SEED_DEMO: 'false',
    SANDBOX_SUPPLIER: 'false',
    SANDBOX_PAYMENTS: 'false',
  };
  const main = new Supervised('embedded', 'all', env);
  await main.start().catch(async (err: unknown) => {
    await main.stop();
    throw err;
  });
  const url = `postgres://postgres:store-suppliers-local@127.0.0.1:${pgPort}/store_suppliers`;
  const reader = readerPool(url);
  const database = await EmbeddedPostgresControl.of(reader, pgPort);
  return {
    name: 'embedded',
    api: new Api(`http://127.0.0.1:${port}`, token),
    processes: [main],
    reader,
    database,
    databaseName: 'store_suppliers',
    async stop(keep = false) {
      await main.stop();
      await reader.end().catch(() => undefined);
      // The service stops its Postgres last on SIGTERM; one left running (a stop that timed out) is stopped here.
      await database.stop().catch(() => undefined);
      if (keep) {
        kept(`embedded: DATA_DIR ${dataDir}, Postgres data ${database.dataDir} (database store_suppliers, user postgres, password store-suppliers-local)`);
        return;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
