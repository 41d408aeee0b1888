/** `npm start` as a newcomer runs it: `dist/server/main.js` with nothing configured but its data folder and ports. */
import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { seen } from './harness';

const main = path.resolve(__dirname, '../../dist/server/main.js');

export interface DefaultStart {
  proc: ChildProcess;
  /** What the process wrote to stderr so far (the start-up banner goes there). */
  stderr(): string;
  exited: Promise<number | null>;
}

/** Started services still running: a failed test must not leave one behind (jest would wait for it). */
const running = new Set<ChildProcess>();

/** Stops every service this file started and that still runs; for `afterAll`. */
export function stopDefaultStarts(): void {
  for (const proc of running) proc.kill('SIGTERM');
}

/** The embedded default: its own Postgres under `dataDir`, the sandboxes and the demo; resolves once the banner is out. */
export async function startDefault(dataDir: string, pgPort: number): Promise<DefaultStart> {
  const env = { ...process.env, DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), PORT: '0', SANDBOX_SUPPLIER_PORT: '0', SANDBOX_PAYMENTS_PORT: '0' };
  for (const name of ['DATABASE_URL', 'APP_SECRET', 'SEED_DEMO', 'SANDBOX_SUPPLIER', 'SANDBOX_SUPPLIER_URL', 'SANDBOX_PAYMENTS', 'SANDBOX_PAYMENTS_URL', 'OPERATOR_TOKEN', 'PUBLIC_BASE_URL']) delete env[name];
  const proc = spawn(process.execPath, [main], { env, stdio: ['ignore', 'pipe', 'pipe'] });
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
  return { proc, stderr: () => err, exited };
}
