/**
 * The served OpenAPI document passes Redocly's recommended lint as a user would run it (redocly.yaml and
 * .redocly.lint-ignore.yaml from the repository, the document saved as openapi.json): no error, no warning.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { leakScanTest, newDeveloper, Service, startService } from '../support/harness';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const REDOCLY = path.join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');

let svc: Service;
let doc: any;
let dir: string;

beforeAll(async () => {
  svc = await startService({ label: 'openapi_lint' });
  await newDeveloper(svc); // an account and key, so the leak scan below has secrets to look for
  const res = await svc.call('GET', '/api/store-suppliers/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'redocly-'));
  for (const f of ['redocly.yaml', '.redocly.lint-ignore.yaml']) fs.copyFileSync(path.join(ROOT, f), path.join(dir, f));
});
afterAll(async () => {
  await svc.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** `redocly lint openapi.json` in a folder holding the repository's configuration: its problems, by rule. */
async function lint(document: unknown): Promise<Array<{ ruleId: string; severity: string; message: string }>> {
  fs.writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(document));
  const out = await run(process.execPath, [REDOCLY, 'lint', 'openapi.json', '--format=json'], {
    cwd: dir,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    maxBuffer: 64 * 1024 * 1024,
  }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
  return JSON.parse(out.stdout).problems.map((p: { ruleId: string; severity: string; message: string }) => ({
    ruleId: p.ruleId,
    severity: p.severity,
    message: p.message,
  }));
}

test("the served document has no lint problem: servers, license, and only the spec's own ambiguous paths, recorded", async () => {
  expect(doc.servers).toEqual([{ url: svc.baseUrl, description: 'This service' }]);
  expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
  expect(await lint(doc)).toEqual([]);
});

test('the lint can fail: no servers is an error, and a new ambiguous path is not covered by the recorded ones', async () => {
  const { servers: _servers, ...withoutServers } = doc;
  expect(await lint(withoutServers)).toEqual([expect.objectContaining({ ruleId: 'no-empty-servers', severity: 'error' })]);
  const refunds = { get: { ...doc.paths['/api/store-suppliers/{storeId}/{id}/impact'].get, operationId: 'listRefunds' } };
  const ambiguous = { ...doc, paths: { ...doc.paths, '/api/store-suppliers/{storeId}/{id}/refunds': refunds } };
  expect(await lint(ambiguous)).toEqual([expect.objectContaining({ ruleId: 'no-ambiguous-paths', message: expect.stringContaining('/refunds') })]);
});

leakScanTest();
