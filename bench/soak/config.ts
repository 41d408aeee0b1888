/** What a soak run is told (environment variables) and the settings it gives the service. */
import path from 'node:path';

function number(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const v = Number(raw);
  if (!Number.isFinite(v) || v < min || v > max) throw new Error(`${name} must be a number from ${min} to ${max}, got "${raw}"`);
  return v;
}

export interface SoakConfig {
  /** SOAK_MINUTES (10): how long the load and the faults run, before the settle phase. */
  minutes: number;
  /** SOAK_STORES (4): stores, split between the two deployments. */
  stores: number;
  /** SOAK_WORKERS (2): worker processes beside the one API process on the soak's own Postgres. */
  workers: number;
  /** SOAK_SETTLE_SECONDS: the most the settle phase may take (default a quarter of the run, from 120 to 600 s). */
  settleSeconds: number;
  /** SOAK_DATABASES (both): `own` (a Postgres the soak starts, DATABASE_URL), `embedded` (the default), or both. */
  databases: Array<'own' | 'embedded'>;
  /** SOAK_RECORD (1): add the run to the table in docs/reliability.md (CI sets 0: it reports through its results file). */
  record: boolean;
  /** SOAK_RESULTS (dist/soak-results.json): the results file, one entry per invariant. */
  resultsFile: string;
  /** SOAK_KEEP (0): keep the deployments' data folders at the end (their Postgres servers stopped) for inspection. */
  keep: boolean;
  /** SOAK_HEAP_SNAPSHOTS (off): a folder (`1`: dist/soak-heap) for each service process's heap snapshots, taken a third of the way into the load and at its end (bench/soak/heap.ts). */
  heapSnapshots: string | null;
}

function heapFolder(raw: string | undefined): string | null {
  if (!raw || ['0', 'false', 'no'].includes(raw.toLowerCase())) return null;
  return path.resolve(['1', 'true', 'yes'].includes(raw.toLowerCase()) ? 'dist/soak-heap' : raw);
}

export function soakConfig(): SoakConfig {
  const minutes = number('SOAK_MINUTES', 10, 1, 24 * 60);
  const databases = (process.env.SOAK_DATABASES || 'both').trim();
  if (!['both', 'own', 'embedded'].includes(databases)) throw new Error(`SOAK_DATABASES must be both, own or embedded, got "${databases}"`);
  return {
    minutes,
    stores: number('SOAK_STORES', 4, 1, 40),
    workers: number('SOAK_WORKERS', 2, 1, 8),
    settleSeconds: number('SOAK_SETTLE_SECONDS', Math.min(600, Math.max(120, minutes * 15)), 10, 3600),
    databases: databases === 'both' ? ['own', 'embedded'] : [databases as 'own' | 'embedded'],
    record: !['0', 'false', 'no'].includes((process.env.SOAK_RECORD ?? '1').toLowerCase()),
    resultsFile: process.env.SOAK_RESULTS || 'dist/soak-results.json',
    keep: ['1', 'true', 'yes'].includes((process.env.SOAK_KEEP ?? '0').toLowerCase()),
    heapSnapshots: heapFolder(process.env.SOAK_HEAP_SNAPSHOTS),
  };
}

/**
 * What the service is told, beside its addresses: time limits and retry delays short enough that a run of minutes
 * sees each mechanism come round several times (a supplier time-out, a dispatch retry, a dead worker's job coming
 * back, the read-back safety net, an event's retry), instead of the production defaults made for days.
 */
export const SERVICE_TUNING: Record<string, string> = {
  LOG_LEVEL: 'info',
  SUPPLIER_TIMEOUT_MS: '4000',
  DISPATCH_RETRY_LIMIT: '5',
  DISPATCH_RETRY_BASE_SECONDS: '2',
  DISPATCH_WAIT_MS: '3000',
  JOB_SUPERVISE_SECONDS: '5',
  CIRCUIT_COOLDOWN_SECONDS: '10',
  SUPPLIER_READBACK_INTERVAL_SECONDS: '20',
  EVENT_DELIVERY_TIMEOUT_MS: '2000',
  EVENT_RETRY_BASE_MS: '1000',
  EVENT_RETRY_MAX_MS: '8000',
  EVENT_POLL_MS: '500',
  EVENT_TARGETS_ALLOW_PRIVATE: 'true',
  DB_POOL_SIZE: '10',
  SHUTDOWN_TIMEOUT_MS: '10000',
  // Credits held by a request whose API process was killed go back within seconds, well inside the settle phase.
  CREDIT_HOLD_LEASE_SECONDS: '5',
};

/**
 * Each service process's database connections, at most: its pool (DB_POOL_SIZE), pg-boss's pool (5) and pg-boss's
 * LISTEN connection, the service's own LISTEN connection, and the two of its migrations while it starts.
 */
export const CONNECTIONS_PER_PROCESS = Number(SERVICE_TUNING.DB_POOL_SIZE) + 5 + 1 + 1 + 2;
