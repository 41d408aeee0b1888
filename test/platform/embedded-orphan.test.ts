/**
 * The embedded default survives its own death (issue 35): `kill -9` of the node process alone (an OOM kill, a
 * container runtime that signals only its first process) must not leave a Postgres that blocks the next start, and
 * nothing may advise removing the data folder.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultEnv, MAIN, startDefault, stopStartedDefaults } from '../support/embedded';
import { call, eventually, freePort, leakScanTest, seen } from '../support/harness';
import { childrenOf } from '../support/own-postgres';

afterAll(stopStartedDefaults);

const alive = (pid: number) => {
  try {
    return !/^[ZX]/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]);
  } catch {
    return false;
  }
};
const postmasterOf = (dataDir: string) => Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
const commandOf = (pid: number) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');

/** The demo's key still opens the demo account: the data is intact. */
async function demoIntact(dataDir: string, demo: { apiKey: string; storeId: string }) {
  const now = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo.json'), 'utf8'));
  expect([now.apiKey, now.storeId]).toEqual([demo.apiKey, demo.storeId]);
  const current = await call(now.baseUrl, 'GET', '/api/api-key/current', { key: demo.apiKey });
  expect([current.status, current.body.result.plan.name]).toEqual([200, 'pro']);
  return now;
}

test('SIGKILL of the node process alone: its Postgres stops by itself, or the next start stops it; the data is intact', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-suppliers-orphan-'));
  fs.chmodSync(dataDir, 0o755);
  const pgPort = await freePort();
  const first = await startDefault(dataDir, pgPort);
  const demo = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo.json'), 'utf8'));
  for (const s of [demo.apiKey, demo.staffApiKey, demo.password, demo.operatorToken]) seen.secrets.add(s);
  await demoIntact(dataDir, demo);

  // Two services on one data folder: the second says so in one sentence instead of fighting over the Postgres.
  const twin = spawnSync(process.execPath, [MAIN], { env: defaultEnv(dataDir, pgPort), encoding: 'utf8', timeout: 60000 });
  expect(twin.status).toBe(2);
  expect(twin.stderr).toMatch(
    new RegExp(`Cannot start: Another Store Suppliers process \\(pid ${first.proc.pid}\\) runs the embedded Postgres on this DATA_DIR`),
  );

  // 1. The watcher: the node process killed alone, its Postgres goes within seconds.
  let postmaster = postmasterOf(dataDir);
  first.proc.kill('SIGKILL');
  await first.exited;
  await eventually(async () => (alive(postmaster) ? undefined : true), 30000, 'the orphaned Postgres to stop');
  const second = await startDefault(dataDir, pgPort);
  await demoIntact(dataDir, demo);

  // 2. The watcher killed too (a whole-group kill that missed the Postgres): the next start finds the leftover and stops it.
  postmaster = postmasterOf(dataDir);
  const watcher = childrenOf(second.proc.pid!).find((pid) => commandOf(pid).includes('store-suppliers-postgres-watch'));
  expect(watcher).toBeDefined();
  process.kill(watcher!, 'SIGKILL');
  second.proc.kill('SIGKILL');
  await second.exited;
  await new Promise((r) => setTimeout(r, 1500));
  expect(alive(postmaster)).toBe(true);
  const third = await startDefault(dataDir, pgPort);
  expect(alive(postmaster)).toBe(false);
  expect(third.stdout()).toContain('embedded postgres left running by a killed run: stopping it');
  await demoIntact(dataDir, demo);
  for (const out of [first, second, third].map((s) => s.stderr() + s.stdout()).concat(twin.stderr)) expect(out).not.toMatch(/remove the data|delete the data/i);

  third.proc.kill('SIGTERM');
  expect(await third.exited).toBe(0);
  // A graceful stop stops the Postgres too, and leaves no watcher behind to act later.
  expect(fs.existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);

  // 3. A lock file left by a crash whose pid now names another live process (after a reboot): removed, and the start goes on.
  fs.writeFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), `${process.pid}\n${path.join(dataDir, 'pg')}\n`);
  const fourth = await startDefault(dataDir, pgPort);
  expect(fourth.stdout()).toContain('stale postmaster.pid removed');
  await demoIntact(dataDir, demo);
  fourth.proc.kill('SIGTERM');
  expect(await fourth.exited).toBe(0);
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 240000);

test('no message or document advises removing the data folder', () => {
  const root = path.resolve(__dirname, '../..');
  const files = ['server', 'docs']
    .flatMap((d) => fs.readdirSync(path.join(root, d), { recursive: true, encoding: 'utf8' }).map((f) => path.join(root, d, f)))
    .concat(path.join(root, 'README.md'));
  const advising = files.filter(
    (f) => /\.(ts|md)$/.test(f) && /remove the data (folder|directory)|delete the data (folder|directory)|rm -rf \.data/i.test(fs.readFileSync(f, 'utf8')),
  );
  expect(advising).toEqual([]);
});

leakScanTest();
