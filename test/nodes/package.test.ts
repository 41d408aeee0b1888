/**
 * The package n8n installs: assembled by the build into package/, with its own manifest, no dependencies,
 * compiled nodes that load and import nothing but n8n-workflow, and a manifest that passes n8n's
 * community-package lint rules. Needs dist/ compiled (npm test builds first).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
// Assembled by the build's own task, into a folder of this test (inside the repository, so that the
// compiled files find n8n-workflow the way they find n8n's copy once installed).
fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
const pkgDir = fs.mkdtempSync(path.join(root, 'dist', 'package-test-'));
// Without jest's NODE_ENV=test: eslint-plugin-n8n-nodes-base reads it and then looks for another AST shape.
const { NODE_ENV: _jestEnv, ...env } = process.env;
const run = (args: string[], input?: string) =>
  execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'], env: { ...env, N8N_PACKAGE_OUT: pkgDir } });

let manifest: any;

beforeAll(() => {
  run([path.join(root, 'node_modules/gulp/bin/gulp.js'), 'build:package']);
  manifest = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
}, 60000);
afterAll(() => {
  fs.rmSync(pkgDir, { recursive: true, force: true });
});

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

test('the manifest: name, version, keyword, n8n section, MIT, n8n-workflow as the only peer and no dependencies', () => {
  expect(manifest).toMatchObject({
    name: 'n8n-nodes-store-suppliers',
    version: '4.4.0',
    license: 'MIT',
    n8n: {
      n8nNodesApiVersion: 1,
      strict: true,
      credentials: ['dist/credentials/StoreSuppliersApi.credentials.js'],
      nodes: ['dist/nodes/StoreSuppliers/StoreSuppliers.node.js', 'dist/nodes/StoreSuppliersTrigger/StoreSuppliersTrigger.node.js'],
    },
    peerDependencies: { 'n8n-workflow': expect.any(String) },
  });
  expect(manifest.keywords).toContain('n8n-community-node-package');
  // Provenance: the manifest names the repository (and the folder in it) it is published from.
  expect(manifest.repository).toMatchObject({ type: 'git', url: expect.stringMatching(/^git\+https:\/\/github\.com\//), directory: 'n8n-package' });
  expect(manifest.homepage).toMatch(/^https:\/\//);
  expect(manifest.bugs.url).toMatch(/^https:\/\//);
  expect(manifest.author.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
  expect(manifest.author.email).not.toMatch(/example|noreply/);
  // The assembled manifest is the tracked one.
  expect(manifest).toEqual(JSON.parse(fs.readFileSync(path.join(root, 'n8n-package/package.json'), 'utf8')));
  expect(Object.keys(manifest.peerDependencies)).toEqual(['n8n-workflow']);
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'scripts']) expect(manifest[field]).toBeUndefined();
  expect(fs.readFileSync(path.join(pkgDir, 'README.md'), 'utf8')).toMatch(/## Install[\s\S]*## Credential[\s\S]*## Operations/);
});

test('the compiled files load, their classes are the ones the manifest names, and their icons are there', () => {
  const expected: Record<string, string> = {
    'dist/credentials/StoreSuppliersApi.credentials.js': 'storeSuppliersApi',
    'dist/nodes/StoreSuppliers/StoreSuppliers.node.js': 'storeSuppliers',
    'dist/nodes/StoreSuppliersTrigger/StoreSuppliersTrigger.node.js': 'storeSuppliersTrigger',
  };
  for (const file of [...manifest.n8n.credentials, ...manifest.n8n.nodes]) {
    const full = path.join(pkgDir, file);
    const mod = require(full);
    const className = path.basename(file).split('.')[0];
    const instance = new mod[className]();
    const description = instance.description ?? instance;
    expect(description.name).toBe(expected[file]);
    const icon = description.icon ?? instance.icon;
    expect(Object.keys(icon).sort()).toEqual(['dark', 'light']);
    for (const file of Object.values(icon) as string[]) {
      expect(file).toMatch(/^file:.+\.svg$/);
      expect(fs.existsSync(path.resolve(path.dirname(full), file.slice('file:'.length)))).toBe(true);
    }
  }
});

test("the package code requires nothing but n8n-workflow, node's crypto (the trigger's signature check; allowed by n8n's scanner) and its own files; no sources or maps are shipped", () => {
  const files = filesUnder(path.join(pkgDir, 'dist'));
  expect(files.filter((f) => /\.(ts|map)$/.test(f))).toEqual([]);
  const required = new Set<string>();
  for (const file of files.filter((f) => f.endsWith('.js'))) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/require\(["']([^"']+)["']\)/g)) if (!m[1].startsWith('.')) required.add(m[1]);
  }
  expect([...required].sort()).toEqual(['crypto', 'n8n-workflow']);
});

test('npm pack of the assembled folder holds exactly the manifest, README, licence and dist', () => {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', pkgDir], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const [packed] = JSON.parse(out);
  expect(packed.name).toBe('n8n-nodes-store-suppliers');
  const paths: string[] = packed.files.map((f: { path: string }) => f.path);
  expect(paths.filter((p) => !p.startsWith('dist/')).sort()).toEqual(['LICENSE.md', 'README.md', 'package.json']);
  expect(paths).toEqual(expect.arrayContaining([...manifest.n8n.credentials, ...manifest.n8n.nodes, 'dist/nodes/StoreSuppliers/storeSuppliers.svg']));
});
