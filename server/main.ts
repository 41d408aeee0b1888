import path from 'node:path';
import type { Server } from 'node:http';
import { ConfigError, loadConfig } from './platform/config';
import { migrate, nameStatements } from './platform/db';
import { failpoint } from './platform/failpoints';
import { openLookupKeys } from './platform/lookup-keys';
import { SEALED } from './keyring';
import { EMBEDDED_DATABASE, EmbeddedDatabase, startEmbeddedPostgres } from './platform/embedded-postgres';
import { EnvironmentError, listenFailure } from './platform/environment';
import { closeServer, listen } from './platform/http/server';
import { Boss, startBoss } from './platform/jobs';
import { bufferedStdout, createLogger } from './platform/logger';
import { missingNodeFlagsSentence, unsupportedNodeSentence } from './platform/node-support';
import { buildHttpApp, buildServices, openDatabase } from './composition';
import { ensureDemo, writeDemoFile } from './demo';
import { QUEUES, registerWorkers } from './workers';
import { startSandboxPrograms } from './sandbox-programs';

async function main(): Promise<void> {
  const unsupported = unsupportedNodeSentence();
  if (unsupported) process.stderr.write(`${unsupported}\n`);
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const log = createLogger(config.logLevel, undefined, bufferedStdout());
  const withoutFlags = missingNodeFlagsSentence();
  if (withoutFlags) log.warn(withoutFlags);
  // Every async path catches its own faults; one that slips through is a bug, logged, and the process serves on: what
  // acts later is durable (outbox, leases, jobs), so nothing is half-done, while exiting would drop every store's
  // requests in flight for one store's fault. A thrown exception (synchronous state may be torn) exits for the supervisor.
  process.on('unhandledRejection', (err) => log.error({ err }, 'unhandled promise rejection'));
  process.on('uncaughtException', (err) => {
    log.fatal({ err }, 'uncaught exception; exiting');
    process.exit(1);
  });
  /** Lines the start-up banner adds about what is switched on (printed once the service listens). */
  const banner: string[] = [];
  const stops: Array<() => Promise<unknown>> = [];
  let embedded: EmbeddedDatabase | null = null;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({
      dir: path.join(config.dataDir, 'pg'),
      cacheDir: config.embeddedPgCacheDir,
      port: config.embeddedPgPort,
      database: EMBEDDED_DATABASE,
      log,
    });
    databaseUrl = embedded.url;
    log.info({ port: config.embeddedPgPort, dataDir: config.dataDir }, 'embedded postgres started');
  }

  const sandboxes = await startSandboxPrograms(config, log);
  banner.push(...sandboxes.banner);
  stops.push(...sandboxes.stops);

  // Event subscriptions to loopback and private addresses: the operator's explicit choice, said out loud like the above.
  if (config.eventTargetsAllowPrivate) {
    log.warn({ variable: 'EVENT_TARGETS_ALLOW_PRIVATE' }, 'private event targets are allowed');
    banner.push(
      '  Event subscriptions may target loopback and private addresses (EVENT_TARGETS_ALLOW_PRIVATE=true, set by npm start for local trials; unset it where others can sign up)',
    );
  }

  // Migrations may run long: on connections of their own, without the statement time-out the service's pool has.
  const waits = { connectMs: config.dbConnectTimeoutMs, statementMs: config.dbStatementTimeoutMs };
  // Behind a pooler in transaction mode (DATABASE_SESSION_URL set): the migrations' session lock on a direct session,
  // and no statement prepared by name.
  const sessionUrl = config.databaseSessionUrl || databaseUrl;
  nameStatements(!config.databaseSessionUrl);
  const migrator = openDatabase(sessionUrl, 2, { connectMs: waits.connectMs });
  await migrator.initialize();
  const migrated = await migrate(migrator, log).finally(() => migrator.destroy());
  // A contract step waits for the previous release's processes to go: tried again (MIGRATION_RETRY_SECONDS) until it applies.
  if (!migrated) stops.push(retryDeferredMigrations(sessionUrl, log, waits.connectMs, config.migrationRetrySeconds));
  const db = openDatabase(databaseUrl, config.dbPoolSize, waits);
  await db.initialize();
  // Refuses (exit 2) when the keyring opens none of the data: before anything could seal or look up under a wrong secret.
  const lookup = await openLookupKeys(db, [config.appSecret, ...config.appSecretsPrevious], SEALED);

  const runsWorkers = config.role !== 'api';
  const boss: Boss = await startBoss(databaseUrl, QUEUES, log, {
    supervise: runsWorkers,
    schedule: runsWorkers,
    superviseSeconds: config.jobSuperviseSeconds,
    waits,
    pooled: !!config.databaseSessionUrl,
  });
  const services = buildServices(config, db, log, boss, databaseUrl, lookup);
  void services.standbys.checkDeclared().catch((err: unknown) => log.warn({ err: String(err) }, 'replication slots not looked at'));
  // Declared asynchronous: whether the database replicates synchronously itself (then nothing waits for standbys).
  await services.standbys.watchSynchronous();
  const stopWorkers = runsWorkers ? await registerWorkers(boss, services) : null;

  let server: Server | null = null;
  // Registered before anything announces it is up: a SIGTERM right after `listening` must shut down cleanly too.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const hardStop = setTimeout(() => process.exit(1), config.shutdownTimeoutMs + 5000);
    hardStop.unref();
    if (server) await closeServer(server, config.shutdownTimeoutMs);
    if (stopWorkers) await stopWorkers(config.shutdownTimeoutMs).catch((err: unknown) => log.error({ err }, 'dispatch stop failed'));
    services.standbys.stop();
    await services.feed.close();
    await boss.stop({ graceful: true, timeout: config.shutdownTimeoutMs }).catch((err: unknown) => log.error({ err }, 'job queue stop failed'));
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await db.destroy().catch(() => undefined);
    if (embedded) await embedded.stop().catch(() => undefined);
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  if (config.role !== 'worker') {
    const app = buildHttpApp(services);
    server = await listen(app, config.port, config.host).catch((err: unknown) => {
      throw listenFailure(err, 'PORT', config.port, 'the service');
    });
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const baseUrl = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
    // Embedded default: the sandbox supplier on this machine can reach us at the local address.
    if (!config.databaseUrl && !config.publicBaseUrl) config.publicBaseUrl = baseUrl;
    log.info({ port, baseUrl, role: config.role }, 'listening');
    // Supervisors and tests wait for this line: not held in the log's buffer.
    log.flush();
    // Fault drill: a rejection nobody handles (FAILPOINTS=main.unhandledRejection=throw), met by the handler at the top.
    void Promise.resolve().then(() => failpoint('main.unhandledRejection'));
    // A changed public address is registered again with the suppliers; failures are logged, not fatal.
    void services.connections
      .reregisterChangedAddresses((connectionId, err) => log.warn({ connectionId, err: String(err) }, 'notification address not registered again'))
      .then((n) => n && log.info({ connections: n }, 'notification addresses registered again'))
      .catch((err) => log.warn({ err }, 'notification addresses not checked'));
    if (config.seedDemo) {
      const demo = await ensureDemo(services, baseUrl);
      const file = writeDemoFile(config.dataDir, demo);
      // Printed to the terminal for the newcomer, not logged: log lines never carry keys.
      process.stderr.write(
        [
          '',
          `Store Suppliers is running at ${baseUrl}`,
          `  Console: ${baseUrl}/console  (sign in as ${demo.email} / ${demo.password})`,
          `  API key (demo store owner): ${demo.apiKey}`,
          `  Store id:                   ${demo.storeId}`,
          `  Try:  curl -s -H "X-API-Key: ${demo.apiKey}" ${baseUrl}/api/api-key/current`,
          ...(demo.paymentProvider
            ? [`  Shoppers pay at the sandbox payment provider: ${demo.paymentProvider.checkoutUrl}&orderId=<order id>&amountMinor=<total>&currency=USD`]
            : []),
          `  API reference: ${baseUrl}/api/store-suppliers/openapi.json`,
          `  The same, as JSON: ${file}`,
          ...banner,
          '',
        ].join('\n') + '\n',
      );
    } else if (banner.length) {
      process.stderr.write(`${banner.join('\n')}\n`);
    }
  } else {
    log.info({ role: config.role }, 'worker started');
    log.flush();
  }
}

main().catch((err) => {
  // A machine problem is one sentence with what to do; anything else is a bug, with its stack.
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  if (err instanceof EnvironmentError) {
    process.stderr.write(`Cannot start: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`Failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});

/** Tries the waiting migrations every `seconds` on connections of their own, until they apply. */
function retryDeferredMigrations(databaseUrl: string, log: ReturnType<typeof createLogger>, connectMs: number, seconds: number): () => Promise<void> {
  let done = false;
  const timer = setInterval(() => {
    const migrator = openDatabase(databaseUrl, 2, { connectMs });
    void migrator
      .initialize()
      .then(() => migrate(migrator, log))
      .then((applied) => {
        if (applied && !done) {
          done = true;
          clearInterval(timer);
        }
      })
      .catch((err: unknown) => log.warn({ err }, 'waiting migrations not tried'))
      .finally(() => migrator.isInitialized && migrator.destroy());
  }, seconds * 1000);
  timer.unref();
  return async () => clearInterval(timer);
}
