/**
 * CI is never green on a browser test that did not run: with CI=true (as .ci/run sets it) the browser suite
 * fails when there is no Chromium, or when the one there cannot start. Checked by running the suite itself in a
 * child jest, as CI would, with the browser taken away.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

interface Outcome {
  code: number;
  passed: number;
  failed: number;
  skipped: number;
  messages: string;
}

async function consoleSuite(env: Record<string, string>): Promise<Outcome> {
  const jest = path.join(ROOT, 'node_modules/jest/bin/jest.js');
  const args = [jest, '--runTestsByPath', 'test/console/console.test.ts', '--json', '--testTimeout=60000'];
  // On this run's Postgres and its migrated template: a child jest need not start and migrate a Postgres of its own.
  const res = await run(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: process.env.TEST_ADMIN_DATABASE_URL!, ...env },
    maxBuffer: 20 * 1024 * 1024,
  }).then(
    (r) => ({ code: 0, stdout: r.stdout }),
    (e: { code: number; stdout: string }) => ({ code: e.code, stdout: e.stdout }),
  );
  const json = JSON.parse(res.stdout);
  const messages =
    json.testResults.map((s: { message: string }) => s.message).join('\n') +
    json.testResults
      .flatMap((s: { assertionResults: Array<{ failureMessages: string[] }> }) => s.assertionResults.flatMap((a) => a.failureMessages))
      .join('\n');
  return { code: res.code, passed: json.numPassedTests, failed: json.numFailedTests, skipped: json.numPendingTests + json.numTodoTests, messages };
}

jest.setTimeout(240_000);

test('CI=true and no Chromium: the browser suite fails, naming why, and skips nothing', async () => {
  const out = await consoleSuite({ CI: 'true', CHROMIUM_PATH: '/nonexistent/chromium' });
  expect(out.code).not.toBe(0);
  expect(out.failed).toBeGreaterThan(0);
  expect(out.skipped).toBe(0);
  expect(out.messages).toContain('CI=true needs the browser suite to run');
});

test('CI=true and a Chromium that cannot start: the browser suite fails', async () => {
  const out = await consoleSuite({ CI: 'true', CHROMIUM_PATH: '/bin/false' });
  expect(out.code).not.toBe(0);
  expect(out.failed).toBeGreaterThan(0);
  expect(out.skipped).toBe(0);
});

test('outside CI, no Chromium: the suite is skipped, said out loud (the case CI refuses)', async () => {
  const out = await consoleSuite({ CI: '', CHROMIUM_PATH: '/nonexistent/chromium' });
  expect(out.code).toBe(0);
  expect(out.failed).toBe(0);
  expect(out.skipped).toBeGreaterThan(0);
});
