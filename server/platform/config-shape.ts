// The service's settings as the code reads them; ./config.ts reads them from the environment (docs/operations.md).

export type Role = 'api' | 'worker' | 'all';
/** How the database replicates, as the operator declares it (DATABASE_REPLICATION; docs/operations.md, "Failover to a standby"). */
export type DatabaseReplication = 'none' | 'asynchronous';

export interface Config {
  role: Role;
  port: number;
  host: string;
  dataDir: string;
  /** Empty when the embedded Postgres is to be used. */
  databaseUrl: string;
  /**
   * Set when DATABASE_URL is a pooler in transaction mode (PgBouncer): a direct session to the primary (HAProxy's
   * address), for what needs one (LISTEN, the migrations' lock). With it, no statement is prepared by name and
   * pg-boss polls instead of listening (docs/operations.md, "PgBouncer").
   */
  databaseSessionUrl: string;
  embeddedPgPort: number;
  /** Where the embedded Postgres gets binaries and data it can reach when run as root from a closed folder. */
  embeddedPgCacheDir: string;
  /** The newest secret of the keyring: new seals and signatures use it. */
  appSecret: string;
  /** Earlier secrets still read (APP_SECRET_PREVIOUS, newest first) while a rotation is under way. */
  appSecretsPrevious: string[];
  /** Token of the operator API (`X-Operator-Token`); empty: the operator API does not exist (404). */
  operatorToken: string;
  /** Read-only token for `GET /metrics` (Bearer) only; empty: metrics take the operator token alone. */
  metricsToken: string;
  publicBaseUrl: string;
  logLevel: string;
  jsonBodyLimit: string;
  keyLastUsedIntervalSeconds: number;
  sessionTtlHours: number;
  /** Seed the demo account, store and keys (default: only with the embedded database). */
  seedDemo: boolean;
  /** Start the bundled sandbox supplier server (default: only with the embedded database). */
  sandboxSupplier: boolean;
  sandboxSupplierPort: number;
  /** The bundled sandbox supplier ships paid orders after this long (0: only on command). */
  sandboxSupplierAutoShipMs: number;
  /** Mount the sandbox supplier's fault-injection control API (local testing only). */
  sandboxSupplierControl: boolean;
  /** Start the bundled sandbox payment provider (default: only with the embedded database). */
  sandboxPayments: boolean;
  sandboxPaymentsPort: number;
  /** Where the sandbox payment provider answers (for the demo store); empty means the one this process starts (or none). */
  sandboxPaymentsUrl: string;
  /** Where the sandbox supplier answers; empty means the one this process starts (or none). */
  sandboxSupplierUrl: string;
  /** The sandbox program's second warehouse (`/eu`) as a supplier of its own, `sandbox-eu`. */
  sandboxSupplierEu: boolean;
  /** Start the bundled ECB-format exchange rates server (default: only with the embedded database). */
  sandboxExchangeRates: boolean;
  sandboxExchangeRatesPort: number;
  /** Where the daily reference rates are read (ECB `eurofxref-daily.xml` format); set to the bundled server's when it starts. */
  exchangeRatesUrl: string;
  exchangeRatesCron: string;
  /** A fetched rate older than this many days is not used. */
  exchangeRateMaxAgeDays: number;
  disabledSuppliers: string[];
  /** The environment as read: each supplier's own settings are declared beside its adapter (suppliers/<key>/config.ts) and read from it by the registry. */
  env: Readonly<NodeJS.ProcessEnv>;
  /** How often sign-ins that expire (AliExpress) are looked at and renewed before they end. */
  credentialRenewalSeconds: number;
  supplierTimeoutMs: number;
  circuitFailureThreshold: number;
  circuitCooldownSeconds: number;
  shutdownTimeoutMs: number;
  /** Background retries of a `failed` supplier order before it pauses as connectionUnhealthy. */
  dispatchRetryLimit: number;
  /** First backoff of those retries; each next one doubles it. */
  dispatchRetryBaseSeconds: number;
  /** How long routing at dispatch waits for a candidate's quote (a later one is no candidate). */
  routingQuoteTimeoutMs: number;
  /** How long submit, retry, pay and cancel wait for the dispatch job before answering 202. */
  dispatchWaitMs: number;
  /** Dispatch jobs one worker process runs at once; sized for waiting on suppliers, not for CPU. */
  dispatchConcurrency: number;
  /** How often each worker sweeps for supplier orders with a step due and no job. */
  dispatchSweepSeconds: number;
  /** How long a record with a step due may go untouched before the sweeper gives it a job. */
  dispatchSweepStaleSeconds: number;
  /** Database connections per process (jobs hold one only while they write, not while they wait on a supplier). */
  dbPoolSize: number;
  /** How long a connection may take to be had (made, or freed in the pool), and one statement to answer, before the request answers 503. */
  dbConnectTimeoutMs: number;
  dbStatementTimeoutMs: number;
  /** When the hourly sync of product links runs (cron, UTC). */
  linkSyncCron: string;
  /** The read-back safety net: an open supplier order is read back from the supplier at least this often. */
  readBackIntervalSeconds: number;
  /** An open claim with a supplier is read back at least this often (a notification about its order reads it sooner). */
  claimCheckSeconds: number;
  /** How often pg-boss's monitor looks for jobs whose worker stopped sending heartbeats. */
  jobSuperviseSeconds: number;
  /** How long credits held for a request stand unrenewed (its process died) before the sweep refunds them. */
  creditHoldLeaseSeconds: number;
  /** How often a migration waiting for the previous release's processes to stop is tried again. */
  migrationRetrySeconds: number;
  /** Events to developers: the time limit of one delivery, its retries (base, cap, give-up), slots, body limit, idle poll, retention. */
  eventDeliveryTimeoutMs: number;
  eventRetryBaseMs: number;
  eventRetryMaxMs: number;
  eventGiveUpSeconds: number;
  eventDeliveryConcurrency: number;
  eventSubscriptionConcurrency: number;
  eventBodyLimitBytes: number;
  eventPollMs: number;
  /**
   * The database's replication as the operator declares it: `none` (no standby: nothing waits, not one statement per
   * write) or `asynchronous` (standbys through physical slots, which the service waits for: ./standbys.ts, unless the
   * database turns out to replicate synchronously itself).
   */
  databaseReplication: DatabaseReplication;
  /** How long a write's answer (and an event's delivery) waits for the database's standbys to confirm it (0: not at all). */
  standbyWaitMs: number;
  eventRetentionDays: number;
  /** Subscriptions may target loopback and private addresses: off unless the operator sets it (`npm start` does for the embedded default). */
  eventTargetsAllowPrivate: boolean;
  /** What one store may take of what all share: subscriptions, test and redeliver calls a minute, delivery slots per worker. */
  eventSubscriptionsPerStore: number;
  eventSendsPerMinute: number;
  eventStoreConcurrency: number;
  /** How often a worker switches off subscriptions whose owner lost access (deliveries check it anyway as they go). */
  eventOwnerCheckSeconds: number;
}
