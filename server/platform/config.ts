import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { bad, boolVar, ConfigError, cronVar, enumVar, intVar, urlVar } from './env-vars';

export { ConfigError } from './env-vars';

export type { Config, Role } from './config-shape';
import type { Config, Role } from './config-shape';

/** The European Central Bank's daily reference rates: the default source outside the embedded default. */
export const ECB_DAILY_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml';

function parseRole(argv: string[]): Role {
  const i = argv.indexOf('--role');
  const inline = argv.find((a) => a.startsWith('--role='));
  const value = inline ? inline.slice('--role='.length) : i >= 0 ? argv[i + 1] : 'all';
  if (value !== 'api' && value !== 'worker' && value !== 'all') {
    throw new ConfigError(`Invalid --role "${value}": expected api, worker or all`);
  }
  return value;
}

/** A secret generated once and kept under DATA_DIR, for the embedded default only. */
function embeddedSecret(dataDir: string, name: string, prefix = ''): string {
  const file = path.join(dataDir, name);
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = prefix + crypto.randomBytes(32).toString('base64url');
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** APP_SECRET_PREVIOUS: the secrets a rotation left behind, comma-separated, newest first; each opens what it sealed. */
function previousSecrets(env: NodeJS.ProcessEnv, current: string): string[] {
  const raw = env.APP_SECRET_PREVIOUS ?? '';
  if (!raw.trim()) return [];
  const list = raw.split(',').map((s) => s.trim());
  if (list.some((s) => s.length < 32)) bad('APP_SECRET_PREVIOUS', 'each earlier secret must be at least 32 characters, separated by commas');
  return [...new Set(list)].filter((s) => s !== current);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, argv: string[] = process.argv.slice(2)): Config {
  const role = parseRole(argv);
  const dataDir = path.resolve(env.DATA_DIR || '.data');
  const databaseUrl = urlVar(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const embedded = !databaseUrl;
  let appSecret = env.APP_SECRET ?? '';
  if (!appSecret) {
    if (!embedded) bad('APP_SECRET', 'required when DATABASE_URL is set (at least 32 characters)');
    appSecret = embeddedSecret(dataDir, 'app-secret');
  } else if (appSecret.length < 32) {
    bad('APP_SECRET', 'must be at least 32 characters');
  }
  // No token configured outside the embedded default: the operator API does not exist.
  let operatorToken = env.OPERATOR_TOKEN ?? '';
  if (!operatorToken && embedded) operatorToken = embeddedSecret(dataDir, 'operator-token', 'sso_');
  else if (operatorToken && (operatorToken.length < 32 || operatorToken.length > 512 || /\s/.test(operatorToken)))
    bad('OPERATOR_TOKEN', 'must be 32 to 512 characters without spaces');
  const metricsToken = env.METRICS_TOKEN ?? '';
  if (metricsToken && (metricsToken.length < 32 || metricsToken.length > 512 || /\s/.test(metricsToken)))
    bad('METRICS_TOKEN', 'must be 32 to 512 characters without spaces');
  if (metricsToken && metricsToken === operatorToken)
    bad('METRICS_TOKEN', 'must differ from OPERATOR_TOKEN (it is read-only; the operator token also changes plans and grants credits)');
  const appSecretsPrevious = previousSecrets(env, appSecret);
  const logLevel = env.LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    bad('LOG_LEVEL', `expected one of fatal, error, warn, info, debug, trace, silent, got "${logLevel}"`);
  }
  const jsonBodyLimit = env.JSON_BODY_LIMIT || '1mb';
  if (!/^\d+(b|kb|mb)$/i.test(jsonBodyLimit)) bad('JSON_BODY_LIMIT', `expected a size such as 1mb, got "${jsonBodyLimit}"`);
  const disabledSuppliers = (env.DISABLED_SUPPLIERS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const key of disabledSuppliers) {
    if (!/^[a-z0-9-]+$/.test(key)) bad('DISABLED_SUPPLIERS', `"${key}" is not a supplier key`);
  }
  return {
    role,
    port: intVar(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '127.0.0.1',
    dataDir,
    databaseUrl,
    databaseSessionUrl: urlVar(env, 'DATABASE_SESSION_URL', ['postgres:', 'postgresql:']),
    embeddedPgPort: intVar(env, 'EMBEDDED_PG_PORT', 54329, 1, 65535),
    embeddedPgCacheDir: path.resolve(env.EMBEDDED_PG_CACHE_DIR || '/var/cache/store-suppliers'),
    appSecret,
    appSecretsPrevious,
    operatorToken,
    metricsToken,
    publicBaseUrl: urlVar(env, 'PUBLIC_BASE_URL', ['http:', 'https:']),
    logLevel,
    jsonBodyLimit,
    keyLastUsedIntervalSeconds: intVar(env, 'KEY_LAST_USED_INTERVAL_SECONDS', 300, 1, 86400),
    sessionTtlHours: intVar(env, 'SESSION_TTL_HOURS', 24 * 14, 1, 24 * 365),
    seedDemo: boolVar(env, 'SEED_DEMO', embedded),
    sandboxSupplier: boolVar(env, 'SANDBOX_SUPPLIER', embedded),
    sandboxSupplierPort: intVar(env, 'SANDBOX_SUPPLIER_PORT', 4010, 0, 65535),
    sandboxSupplierControl: boolVar(env, 'SANDBOX_SUPPLIER_CONTROL', embedded),
    sandboxPayments: boolVar(env, 'SANDBOX_PAYMENTS', embedded),
    sandboxPaymentsPort: intVar(env, 'SANDBOX_PAYMENTS_PORT', 4020, 0, 65535),
    sandboxPaymentsUrl: urlVar(env, 'SANDBOX_PAYMENTS_URL', ['http:', 'https:']),
    sandboxSupplierAutoShipMs: intVar(env, 'SANDBOX_SUPPLIER_AUTO_SHIP_MS', 120000, 0, 86400000),
    sandboxSupplierUrl: urlVar(env, 'SANDBOX_SUPPLIER_URL', ['http:', 'https:']),
    sandboxSupplierEu: boolVar(env, 'SANDBOX_SUPPLIER_EU', embedded),
    sandboxExchangeRates: boolVar(env, 'SANDBOX_EXCHANGE_RATES', embedded) && !urlVar(env, 'EXCHANGE_RATES_URL', ['http:', 'https:']),
    sandboxExchangeRatesPort: intVar(env, 'SANDBOX_EXCHANGE_RATES_PORT', 4030, 0, 65535),
    // Never reached unless configured: a deployment names its source (the ECB's is ECB_DAILY_URL, docs/operations.md).
    exchangeRatesUrl: urlVar(env, 'EXCHANGE_RATES_URL', ['http:', 'https:']),
    exchangeRatesCron: cronVar(env, 'EXCHANGE_RATES_CRON', '30 16 * * *'),
    exchangeRateMaxAgeDays: intVar(env, 'EXCHANGE_RATE_MAX_AGE_DAYS', 4, 1, 365),
    disabledSuppliers,
    env: { ...env },
    credentialRenewalSeconds: intVar(env, 'SUPPLIER_CREDENTIAL_RENEWAL_SECONDS', 300, 1, 86400),
    supplierTimeoutMs: intVar(env, 'SUPPLIER_TIMEOUT_MS', 15000, 100, 300000),
    circuitFailureThreshold: intVar(env, 'CIRCUIT_FAILURE_THRESHOLD', 5, 1, 1000),
    circuitCooldownSeconds: intVar(env, 'CIRCUIT_COOLDOWN_SECONDS', 60, 1, 86400),
    shutdownTimeoutMs: intVar(env, 'SHUTDOWN_TIMEOUT_MS', 20000, 100, 600000),
    linkSyncCron: cronVar(env, 'LINK_SYNC_CRON', '7 * * * *'),
    dispatchRetryLimit: intVar(env, 'DISPATCH_RETRY_LIMIT', 5, 0, 100),
    dispatchRetryBaseSeconds: intVar(env, 'DISPATCH_RETRY_BASE_SECONDS', 30, 1, 86400),
    routingQuoteTimeoutMs: intVar(env, 'ROUTING_QUOTE_TIMEOUT_MS', 5000, 50, 60000),
    dispatchWaitMs: intVar(env, 'DISPATCH_WAIT_MS', 15000, 0, 120000),
    jobSuperviseSeconds: intVar(env, 'JOB_SUPERVISE_SECONDS', 10, 1, 3600),
    creditHoldLeaseSeconds: intVar(env, 'CREDIT_HOLD_LEASE_SECONDS', 60, 3, 3600),
    migrationRetrySeconds: intVar(env, 'MIGRATION_RETRY_SECONDS', 60, 1, 3600),
    dispatchConcurrency: intVar(env, 'DISPATCH_CONCURRENCY', 400, 1, 4000),
    dispatchSweepSeconds: intVar(env, 'DISPATCH_SWEEP_SECONDS', 5, 1, 3600),
    dispatchSweepStaleSeconds: intVar(env, 'DISPATCH_SWEEP_STALE_SECONDS', 15, 1, 86400),
    dbPoolSize: intVar(env, 'DB_POOL_SIZE', 20, 2, 500),
    dbConnectTimeoutMs: intVar(env, 'DB_CONNECT_TIMEOUT_MS', 10000, 100, 120000),
    dbStatementTimeoutMs: intVar(env, 'DB_STATEMENT_TIMEOUT_MS', 15000, 100, 3600000),
    readBackIntervalSeconds: intVar(env, 'SUPPLIER_READBACK_INTERVAL_SECONDS', 900, 2, 7 * 86400),
    claimCheckSeconds: intVar(env, 'CLAIM_CHECK_SECONDS', 900, 1, 7 * 86400),
    eventDeliveryTimeoutMs: intVar(env, 'EVENT_DELIVERY_TIMEOUT_MS', 5000, 100, 30000),
    eventRetryBaseMs: intVar(env, 'EVENT_RETRY_BASE_MS', 10000, 10, 3600000),
    eventRetryMaxMs: intVar(env, 'EVENT_RETRY_MAX_MS', 6 * 3600000, 10, 7 * 86400000),
    eventGiveUpSeconds: intVar(env, 'EVENT_GIVE_UP_SECONDS', 3 * 86400, 1, 30 * 86400),
    eventDeliveryConcurrency: intVar(env, 'EVENT_DELIVERY_CONCURRENCY', 200, 1, 2000),
    eventSubscriptionConcurrency: intVar(env, 'EVENT_SUBSCRIPTION_CONCURRENCY', 32, 1, 500),
    eventBodyLimitBytes: intVar(env, 'EVENT_BODY_LIMIT_BYTES', 256 * 1024, 1024, 8 * 1024 * 1024),
    eventPollMs: intVar(env, 'EVENT_POLL_MS', 1000, 50, 60000),
    databaseReplication: enumVar(env, 'DATABASE_REPLICATION', ['none', 'asynchronous'] as const, 'none'),
    standbyWaitMs: intVar(env, 'STANDBY_WAIT_MS', 5000, 0, 60000),
    eventRetentionDays: intVar(env, 'EVENT_RETENTION_DAYS', 30, 1, 3650),
    eventTargetsAllowPrivate: boolVar(env, 'EVENT_TARGETS_ALLOW_PRIVATE', false),
    eventSubscriptionsPerStore: intVar(env, 'EVENT_SUBSCRIPTIONS_PER_STORE', 25, 1, 10000),
    eventSendsPerMinute: intVar(env, 'EVENT_SENDS_PER_MINUTE', 60, 1, 100000),
    eventStoreConcurrency: intVar(env, 'EVENT_STORE_CONCURRENCY', 50, 1, 2000),
    eventOwnerCheckSeconds: intVar(env, 'EVENT_OWNER_CHECK_SECONDS', 30, 1, 3600),
  };
}
