/** `npm start` with nothing configured, as a child process: the embedded Postgres under DATA_DIR, the demo, the sandboxes. */
import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { seen } from './harness';

export const MAIN = path.resolve(__dirname, '../../dist/server/main.js');

/** Started services still running: a failed test must not leave one behind (jest would wait for it). */
const running = new Set<ChildProcess>();

/** For afterAll: stops what a file started and left running. */
export function stopStartedDefaults(): void {
  for (const proc of running) proc.kill('SIGTERM');
}

/** The environment of the embedded default on `dataDir`: every variable that would turn it off is removed. */
export function defaultEnv(dataDir: string, pgPort: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(pgPort),
    PORT: '0',
    SANDBOX_SUPPLIER_PORT: '0',
    SANDBOX_PAYMENTS_PORT: '0',
    SANDBOX_EXCHANGE_RATES_PORT: '0',
  };
  delete env.EVENT_TARGETS_ALLOW_PRIVATE;
  Object.assign(env, extra);
  for (const name of [
    'DATABASE_URL',
    'APP_SECRET',
    'APP_SECRET_PREVIOUS',
    'SEED_DEMO',
    'SANDBOX_SUPPLIER',
    'SANDBOX_SUPPLIER_URL',
    'SANDBOX_PAYMENTS',
    'SANDBOX_PAYMENTS_URL',
    'SANDBOX_EXCHANGE_RATES',
    'EXCHANGE_RATES_URL',
    'OPERATOR_TOKEN',
    'PUBLIC_BASE_URL',
  ])
    delete env[name];
  return env;
}

export async function startDefault(
  dataDir: string,
  pgPort: number,
  extra: Record<string, string> = {},
): Promise<{ proc: ChildProcess; stderr: () => string; stdout: () => string; exited: Promise<number | null> }> {
  const proc = spawn(process.execPath, [MAIN], { env: defaultEnv(dataDir, pgPort, extra), stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(proc);
  proc.once('exit', () => running.delete(proc));
  let out = '';
  let err = '';
  proc.stdout!.on('data', (c: Buffer) => {
    out += c;
    seen.logLines.push(c.toString());
  });
  proc.stderr!.on('data', (c: Buffer) => (err += c));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  const deadline = Date.now() + 60000;
  while (!err.includes('API key (demo store owner)')) {
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`did not start: ${err}\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { proc, stderr: () => err, stdout: () => out, exited };
}
