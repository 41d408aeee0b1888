// Assembles the n8n community package `n8n-nodes-store-suppliers` into package/ (gitignored): the compiled
// nodes/ and credentials/ (tsc writes them to dist/nodes, dist/credentials), their icons and codex files,
// and the manifest, README and licence tracked in n8n-package/. No dependencies, n8n-workflow the only
// peer. `npm pack ./package` (npm run pack:n8n) makes the tarball n8n installs.
// `build:source` assembles the package's source view (manifest, lint config, nodes/ and credentials/ as
// TypeScript) into dist/n8n-source/: the folder shape n8n's linter and scanner expect of a package.
const fs = require('node:fs');
const path = require('node:path');
const { src, dest, series, parallel } = require('gulp');

const ROOT = __dirname;
// N8N_PACKAGE_OUT lets a test assemble the package somewhere of its own.
const OUT = process.env.N8N_PACKAGE_OUT ? path.resolve(process.env.N8N_PACKAGE_OUT) : path.join(ROOT, 'package');
const SOURCE_OUT = path.join(ROOT, 'dist/n8n-source');

// The package's own files: manifest, README, licence, n8n-node's lint config.
const PKG = path.join(ROOT, 'n8n-package');
const manifest = JSON.parse(fs.readFileSync(path.join(PKG, 'package.json'), 'utf8'));
const ICONS = ['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'];

function buildIcons() {
  return src(ICONS, { base: '.', allowEmpty: true, encoding: false }).pipe(dest('dist'));
}

function cleanPackage(done) {
  fs.rmSync(OUT, { recursive: true, force: true });
  done();
}

/** Compiled JavaScript only: no source maps, no TypeScript, nothing but nodes and credentials. */
function packageCode() {
  for (const file of [...manifest.n8n.credentials, ...manifest.n8n.nodes]) {
    if (!fs.existsSync(path.join(ROOT, file))) throw new Error(`${file} is missing: run tsc first (npm run build does).`);
  }
  return src(['dist/nodes/**/*.js', 'dist/credentials/**/*.js'], { base: 'dist' }).pipe(dest(path.join(OUT, 'dist')));
}

/** Icons and codex files (StoreSuppliers.node.json) next to the compiled node files. */
function packageAssets() {
  return src([...ICONS, 'nodes/**/*.node.json'], { base: '.', allowEmpty: true, encoding: false }).pipe(dest(path.join(OUT, 'dist')));
}

function packageFiles(done) {
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  fs.copyFileSync(path.join(PKG, 'README.md'), path.join(OUT, 'README.md'));
  fs.copyFileSync(path.join(PKG, 'LICENSE.md'), path.join(OUT, 'LICENSE.md'));
  done();
}

/** The source view: n8n-package/'s files with nodes/ and credentials/ beside them, as in a package repository. */
function buildSource(done) {
  fs.rmSync(SOURCE_OUT, { recursive: true, force: true });
  fs.cpSync(PKG, SOURCE_OUT, { recursive: true, filter: (from) => !from.includes(`${path.sep}node_modules`) });
  for (const folder of ['nodes', 'credentials']) fs.cpSync(path.join(ROOT, folder), path.join(SOURCE_OUT, folder), { recursive: true });
  done();
}

exports.manifest = manifest;
exports.SOURCE_OUT = SOURCE_OUT;
exports['build:icons'] = buildIcons;
exports['build:package'] = series(cleanPackage, parallel(packageCode, packageAssets), packageFiles);
exports['build:source'] = buildSource;
exports.build = series(buildIcons, exports['build:package']);
