/**
 * CI's summary (.ci/summary.mjs, fed by .ci/run): a run that did not happen, or a test that did not run, is never
 * counted as a pass.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-summary-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A jest --json file with one suite holding tests of these statuses. */
function jestFile(name: string, statuses: string[], suite: { status?: string; file?: string } = {}): string {
  const file = path.join(dir, name);
  const testFile = path.join(ROOT, suite.file ?? 'test/a.test.ts');
  const assertionResults = statuses.map((status, i) => ({ fullName: `t${i}`, status }));
  fs.writeFileSync(file, JSON.stringify({ testResults: [{ name: testFile, status: suite.status ?? 'passed', assertionResults }] }));
  return file;
}

function summary(files: string[], allowed: string[] = []): { code: number | null; out: string; last: string } {
  const res = spawnSync(process.execPath, [path.join(ROOT, '.ci/summary.mjs')], {
    cwd: ROOT,
    env: { ...process.env, RESULT_FILES: files.join('\n'), ALLOWED_SKIPS: allowed.join('\n') },
    encoding: 'utf8',
  });
  const lines = res.stdout.trim().split('\n');
  return { code: res.status, out: res.stdout, last: lines[lines.length - 1] };
}

test('every file counts: jest results and { passed, failed } files alike', () => {
  const e2e = path.join(dir, 'e2e.json');
  fs.writeFileSync(e2e, JSON.stringify({ passed: 12, failed: 0, checks: [] }));
  const dotnet = path.join(dir, 'dotnet-results.json');
  fs.writeFileSync(dotnet, JSON.stringify({ passed: 30, failed: 0, skipped: 0 }));
  const r = summary([jestFile('a.json', ['passed', 'passed']), e2e, dotnet]);
  expect([r.code, r.last]).toEqual([0, '44 passed, 0 failed']);
});

test('a missing results file is a failure', () => {
  const r = summary([jestFile('a.json', ['passed']), path.join(dir, 'dist/dotnet-results.json')]);
  expect([r.code, r.last]).toEqual([1, '1 passed, 1 failed']);
  expect(r.out).toContain('dotnet-results.json: missing or unreadable');
});

test('a skipped or todo test fails the run unless it is on the allow-list', () => {
  const file = jestFile('a.json', ['passed', 'pending', 'todo']);
  const refused = summary([file]);
  expect([refused.code, refused.last]).toEqual([1, '1 passed, 2 failed']);
  expect(refused.out).toContain('test/a.test.ts > t1: pending, and not on the allow-list in .ci/run');
  const allowed = summary([file], ['test/a.test.ts > t1', 'test/a.test.ts > t2']);
  expect([allowed.code, allowed.last]).toEqual([0, '1 passed, 0 failed, 2 skipped (allowed)']);
});

test('a suite that failed before running a test, a failed test, and a skipped count in another file are failures', () => {
  const broken = jestFile('b.json', [], { status: 'failed', file: 'test/b.test.ts' });
  const e2e = path.join(dir, 'e2e.json');
  fs.writeFileSync(e2e, JSON.stringify({ passed: 3, failed: 1, skipped: 2 }));
  const r = summary([broken, jestFile('c.json', ['failed']), e2e]);
  expect([r.code, r.last]).toEqual([1, '3 passed, 5 failed']);
  expect(r.out).toContain('test/b.test.ts: the suite failed before any test ran');
});

test('no files at all is not a green run', () => {
  expect(summary([]).code).toBe(1);
});
