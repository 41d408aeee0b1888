/**
 * n8n's own gates for community packages, run on this package: the scanner's analysis
 * (@n8n/scan-community-package, what n8n runs before verifying a package) on the packed tarball and on
 * the package's source view (nodes/ and credentials/ beside the manifest, as the scanner's source patterns
 * expect; gulpfile.js `build:source`), and `n8n-node lint` (@n8n/node-cli) with no error and no warning.
 * Needs dist/ compiled (npm test builds first).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
const work = fs.mkdtempSync(path.join(root, 'dist', 'scan-test-'));
const pkgDir = path.join(work, 'assembled');
const { NODE_ENV: _jestEnv, ...env } = process.env;
const node = (args: string[], cwd = root) =>
  execFileSync(process.execPath, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, N8N_PACKAGE_OUT: pkgDir } });

interface Analysis {
  passed: boolean;
  message: string | null;
  details: string | null;
}
const scan = (folder: string, mode?: 'source'): Analysis =>
  JSON.parse(
    node([path.join(__dirname, 'support/scan.mjs'), folder, ...(mode ? [mode] : [])])
      .trim()
      .split('\n')
      .pop()!,
  );

let unpacked: string;
let source: string;

beforeAll(() => {
  node([path.join(root, 'node_modules/gulp/bin/gulp.js'), 'build:package']);
  // The source view, copied away so that a concurrent `npm run lint` (which rebuilds it) cannot pull it away.
  node([path.join(root, 'node_modules/gulp/bin/gulp.js'), 'build:source']);
  source = path.join(work, 'source');
  fs.cpSync(path.join(root, 'dist/n8n-source'), source, { recursive: true, filter: (from) => !from.includes('node_modules') });
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work, pkgDir], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const [{ filename }] = JSON.parse(out);
  unpacked = path.join(work, 'unpacked');
  fs.mkdirSync(unpacked);
  execFileSync('tar', ['-xzf', path.join(work, filename), '-C', unpacked, '--strip-components=1']);
}, 120000);
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

test("the packed tarball passes the scanner's analysis", () => {
  expect(fs.existsSync(path.join(unpacked, 'dist/nodes/StoreSuppliers/StoreSuppliers.node.js'))).toBe(true);
  expect(scan(unpacked)).toEqual({ passed: true, message: null, details: null });
}, 120000);

test("the source view (nodes/, credentials/ and the manifest) passes the scanner's analysis", () => {
  expect(fs.existsSync(path.join(source, 'nodes/StoreSuppliers/StoreSuppliers.node.ts'))).toBe(true);
  expect(JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8')).name).toBe('n8n-nodes-store-suppliers');
  expect(scan(source, 'source')).toEqual({ passed: true, message: null, details: null });
}, 120000);

test('the analysis does look at the files: a console call in the compiled node fails it', () => {
  const broken = path.join(work, 'broken');
  fs.cpSync(unpacked, broken, { recursive: true });
  const file = path.join(broken, 'dist/nodes/StoreSuppliers/StoreSuppliers.node.js');
  fs.appendFileSync(file, '\nconsole.log("hello");\n');
  const result = scan(broken);
  expect(result.passed).toBe(false);
  expect(result.details).toContain('no-console');
}, 120000);

test('the source view holds the TypeScript sources the analysis lints: a console call in a node source fails it', () => {
  const broken = path.join(work, 'broken-source');
  fs.cpSync(source, broken, { recursive: true });
  fs.appendFileSync(path.join(broken, 'nodes/StoreSuppliersTrigger/poll.ts'), '\nconsole.log("hello");\n');
  const result = scan(broken, 'source');
  expect(result.passed).toBe(false);
  expect(result.details).toContain('poll.ts');
}, 120000);

test('n8n-node lint (the strict default config) reports no error and no warning', () => {
  // Installed into the cache on first use (test/e2e/runtimes.mjs), not with the project; see there why.
  const out = execFileSync(process.execPath, [path.join(root, 'test/e2e/runtimes.mjs'), 'n8n-node', 'lint'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...env, FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  expect(out).not.toMatch(/\d+ problems?|warning|error/i);
}, 600000);
