/**
 * The README's walks, "A whole order, with curl" and "Route and reroute, with curl", each run as a newcomer runs it:
 * its shell blocks, in order and as written, in bash, against a fresh `npm start` (the embedded default, its data
 * folder `.data` in the folder the walk runs from), twice. Each run must succeed, say nothing on stderr, and print what
 * the README shows after each block, so the README cannot drift from the service.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startDefault, stopStartedDefaults } from '../support/embedded';
import { call, freePort, leakScanTest, seen } from '../support/harness';

jest.setTimeout(1_000_000);
afterAll(stopStartedDefaults);

const SECTION = '## A whole order, with curl';
const REROUTE_SECTION = '## Route and reroute, with curl';
const PARCEL_SECTION = '## When a parcel does not arrive, with curl';
/** Far more than a run takes (seconds): the walk's own waits give up long before. */
const WALK_LIMIT_MS = 420_000;

/** The section's ```sh blocks, each with the ```text block that follows it (what it prints), if any. */
function walkOf(readme: string, heading = SECTION): Array<{ sh: string; prints: string[] | null }> {
  const start = readme.indexOf(heading);
  if (start < 0) throw new Error(`README.md has no section "${heading}"`);
  const end = readme.indexOf('\n## ', start + heading.length);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const blocks: Array<{ sh: string; prints: string[] | null }> = [];
  for (const m of section.matchAll(/^```(sh|text)\n([\s\S]*?)^```$/gm)) {
    if (m[1] === 'sh') blocks.push({ sh: m[2], prints: null });
    else if (blocks.length && !blocks[blocks.length - 1].prints) blocks[blocks.length - 1].prints = m[2].replace(/\n$/, '').split('\n');
    else throw new Error(`a text block in "${heading}" follows no shell block: ${m[2]}`);
  }
  return blocks;
}

/**
 * A line the README shows, as a pattern for what a run prints: a word with a digit in it (an id, an amount, a
 * count) stands for any such word, a quoted string (a product's name) for any quoted string; the rest is as written.
 */
function shownLine(line: string): RegExp {
  const parts = line.match(/"[^"]*"|[A-Za-z0-9_-]+|[^"A-Za-z0-9_-]+|"/g) ?? [];
  const pattern = parts.map((p) => {
    if (/^"[^"]*"$/.test(p)) return '"[^"]*"';
    if (/^[A-Za-z0-9_-]+$/.test(p) && /\d/.test(p)) return '[A-Za-z0-9_-]+';
    return p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return new RegExp(`^${pattern.join('')}$`);
}

/** Runs the blocks in one bash, as pasted in order; a marker line between blocks tells their output apart. */
function runWalk(blocks: Array<{ sh: string }>, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = blocks.map((b, i) => `echo '@@ block ${i} @@'\n${b.sh}`).join('\n');
  const env: Record<string, string | undefined> = { ...process.env, PATH: `${path.dirname(process.execPath)}:${process.env.PATH}` };
  // The walk reads the demo from `.data` in the folder it runs from, as from the repository's folder after `npm start`.
  delete env.DATA_DIR;
  return new Promise((resolve) => {
    // Its own process group, so a walk that never ends (an endless wait) is stopped with everything it started.
    const bash = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    const limit = setTimeout(() => {
      stderr += `\n(the walk was stopped after ${WALK_LIMIT_MS / 1000} s)`;
      process.kill(-bash.pid!, 'SIGKILL');
    }, WALK_LIMIT_MS);
    bash.stdout.on('data', (c: Buffer) => (stdout += c));
    bash.stderr.on('data', (c: Buffer) => (stderr += c));
    bash.once('exit', (code) => (clearTimeout(limit), resolve({ code, stdout, stderr })));
  });
}

/** Each block's output lines, by the markers. */
function outputsOf(stdout: string, count: number): string[][] {
  const out: string[][] = Array.from({ length: count }, () => []);
  let at = -1;
  for (const line of stdout.replace(/\n$/, '').split('\n')) {
    const marker = /^@@ block (\d+) @@$/.exec(line);
    if (marker) at = Number(marker[1]);
    else if (at >= 0) out[at].push(line);
  }
  return out;
}

test('the shown-output patterns: ids and amounts vary, names in quotes vary, words do not', () => {
  const line = shownLine('Imported SBX-P00002 "Organic Leather Wallet"; ordering WAL-00002-1 "Mustard" at 88.99 USD (55 in stock)');
  expect(line.test('Imported SBX-P00417 "Rustic Oak Lamp"; ordering LAM-00417-2 "Teal / Small" at 105.99 USD (3 in stock)')).toBe(true);
  expect(line.test('Imported SBX-P00417 "Rustic Oak Lamp"; ordering LAM-00417-2 "Teal / Small" at 105.99 EUR (3 in stock)')).toBe(false);
  expect(shownLine('1001 pending none 8899 USD').test('1002 confirmed none 8899 USD')).toBe(false);
  expect(walkOf('## A whole order, with curl\n\n```sh\necho hi\n```\n\n```text\nhi\n```\n\n```sh\ntrue\n```\n\n## Next\n```sh\nno\n```\n')).toEqual([
    { sh: 'echo hi\n', prints: ['hi'] },
    { sh: 'true\n', prints: null },
  ]);
});

test("the README's whole order with curl runs as written, twice in a row, and prints what the README shows", async () => {
  const blocks = walkOf(fs.readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8'));
  // Every step is in the walk: the import, the order, the payment, the supplier part, promise to sell, the tracking.
  expect(blocks.length).toBeGreaterThanOrEqual(8);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-walk-'));
  fs.chmodSync(folder, 0o755);
  const dataDir = path.join(folder, '.data');
  fs.mkdirSync(dataDir, { mode: 0o755 });
  // As `npm start` runs the embedded default (package.json's start script).
  const started = await startDefault(dataDir, await freePort(), { EVENT_TARGETS_ALLOW_PRIVATE: 'true' });
  const demo = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo.json'), 'utf8'));
  for (const secret of [demo.apiKey, demo.staffApiKey, demo.password, demo.operatorToken]) seen.secrets.add(secret);

  const imported = (await walkTwice(blocks, folder)).map((stdout) => /Imported (\S+)/.exec(stdout)![1]);
  // The second run picked a product the first had imported already.
  expect(new Set(imported).size).toBe(2);

  started.proc.kill('SIGTERM');
  expect(await started.exited).toBe(0);
  fs.rmSync(folder, { recursive: true, force: true });
});

/** Runs a walk twice against the started default; each run must print what the README shows. Answers each run's stdout. */
async function walkTwice(blocks: Array<{ sh: string; prints: string[] | null }>, folder: string): Promise<string[]> {
  const outs: string[] = [];
  for (const run of [1, 2]) {
    const { code, stdout, stderr } = await runWalk(blocks, folder);
    expect({ run, code, stderr }).toEqual({ run, code: 0, stderr: '' });
    const outputs = outputsOf(stdout, blocks.length);
    blocks.forEach((b, i) => {
      if (!b.prints) return;
      expect({ run, block: i, lines: outputs[i].length }).toEqual({ run, block: i, lines: b.prints.length });
      b.prints.forEach((shown, n) => {
        if (!shownLine(shown).test(outputs[i][n]))
          throw new Error(`run ${run}, block ${i}, line ${n + 1}: printed\n  ${outputs[i][n]}\nbut the README shows\n  ${shown}`);
      });
    });
    outs.push(stdout);
  }
  return outs;
}

test("the README's route and reroute with curl runs as written, twice in a row, and prints what the README shows", async () => {
  const blocks = walkOf(fs.readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8'), REROUTE_SECTION);
  // The suppliers, the product with a backup, an order routed, the supplier running out, an order rerouted, the stock back.
  expect(blocks.length).toBeGreaterThanOrEqual(6);
  // It sets the rule to lowestLandedCost and, so that it can run again, back to primary.
  const shell = blocks.map((b) => b.sh).join('\n');
  expect(shell).toMatch(/"rule":"lowestLandedCost"[\s\S]*"rule":"primary"/);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-reroute-'));
  fs.chmodSync(folder, 0o755);
  const dataDir = path.join(folder, '.data');
  fs.mkdirSync(dataDir, { mode: 0o755 });
  const started = await startDefault(dataDir, await freePort(), { EVENT_TARGETS_ALLOW_PRIVATE: 'true' });
  const demo = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo.json'), 'utf8'));
  for (const secret of [demo.apiKey, demo.staffApiKey, demo.password, demo.operatorToken]) seen.secrets.add(secret);

  const outs = await walkTwice(blocks, folder);
  // Each run routed one order and rerouted another: four orders at the second warehouse's own records, none at the first's.
  const numbers = outs.map((o) => /^sandbox-eu: (\S+)$/m.exec(o)?.[1]);
  expect(numbers).toEqual(['created', 'created']);
  expect(outs.map((o) => /^routed to (\S+)$/m.exec(o)?.[1])).toEqual(['sandbox-eu', 'sandbox-eu']);
  const firsts = (await call(demo.baseUrl, 'GET', `/api/store-suppliers/${demo.storeId}/orders?integrationId=${demo.connectionId}`, { key: demo.apiKey })).body
    .result.items;
  const by = (type: string) => firsts.filter((so: any) => so.events.some((e: any) => e.type === type));
  expect([by('routedAway').length, by('rerouted').length]).toEqual([2, 2]);
  const eu = await (await fetch(`${demo.sandboxSupplierEu.controlUrl}/received`)).json();
  const main = await (await fetch(`${demo.sandboxSupplier.controlUrl}/received`)).json();
  const rerouted = (
    await call(demo.baseUrl, 'GET', `/api/store-suppliers/${demo.storeId}/orders?integrationId=${demo.backupConnectionId}`, { key: demo.apiKey })
  ).body.result.items;
  expect(rerouted).toHaveLength(4);
  for (const so of rerouted) {
    expect(eu.orders.filter((o: any) => o.orderNumber === so.supplierOrderNumber)).toEqual([
      expect.objectContaining({ accountId: 'acct_demo_eu', status: 'created' }),
    ]);
    expect(main.orders.filter((o: any) => o.orderNumber === so.supplierOrderNumber)).toEqual([]);
  }

  started.proc.kill('SIGTERM');
  expect(await started.exited).toBe(0);
  fs.rmSync(folder, { recursive: true, force: true });
});

test("the README's parcel that does not arrive, with curl, runs as written, twice in a row: the attention, one claim, one reship shipped", async () => {
  const blocks = walkOf(fs.readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8'), PARCEL_SECTION);
  // The helpers, the order shipped, the parcel stalled, the claim, the sandbox's decision and the reship.
  expect(blocks.length).toBeGreaterThanOrEqual(5);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-parcel-'));
  fs.chmodSync(folder, 0o755);
  const dataDir = path.join(folder, '.data');
  fs.mkdirSync(dataDir, { mode: 0o755 });
  const started = await startDefault(dataDir, await freePort(), { EVENT_TARGETS_ALLOW_PRIVATE: 'true' });
  const demo = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo.json'), 'utf8'));
  for (const secret of [demo.apiKey, demo.staffApiKey, demo.password, demo.operatorToken]) seen.secrets.add(secret);

  const outs = await walkTwice(blocks, folder);
  expect(outs.map((o) => /^at the sandbox: claim sent (\d+) time\(s\), (\d+) reship order\(s\)$/m.exec(o)?.slice(1))).toEqual([
    ['1', '1'],
    ['1', '1'],
  ]);
  // The service's records agree: two claims closed as reshipped, each with one reship order, shipped (the first one
  // delivered since: the second run moved the sandbox's clock 80 hours on).
  const claimed = (
    await call(demo.baseUrl, 'GET', `/api/store-suppliers/${demo.storeId}/orders?integrationId=${demo.connectionId}&pageSize=100`, { key: demo.apiKey })
  ).body.result.items;
  const reships = claimed.filter((so: any) => so.reshipOf);
  expect(reships.map((so: any) => so.status).sort()).toEqual(['delivered', 'shipped']);
  const received = await (await fetch(`${demo.sandboxSupplier.controlUrl}/received`)).json();
  for (const so of reships) expect(received.orders.filter((o: any) => o.orderNumber === so.supplierOrderNumber)).toHaveLength(1);

  started.proc.kill('SIGTERM');
  expect(await started.exited).toBe(0);
  fs.rmSync(folder, { recursive: true, force: true });
});

leakScanTest();
