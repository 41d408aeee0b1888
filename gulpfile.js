// Assembles the n8n community package `n8n-nodes-store-suppliers` into package/ (gitignored), from what
// tsc compiled into dist/n8n-package/{nodes,credentials} and the tracked n8n-package/ folder: its own
// manifest, no dependencies, n8n-workflow as the only peer. `npm pack ./package` (npm run pack:n8n) makes the tarball n8n installs.
// It also keeps copying the icons next to the compiled files in dist/, as before.
const fs = require('node:fs');
const path = require('node:path');
const { src, dest, series, parallel } = require('gulp');

const ROOT = __dirname;
// N8N_PACKAGE_OUT lets a test assemble the package somewhere of its own.
const OUT = process.env.N8N_PACKAGE_OUT ? path.resolve(process.env.N8N_PACKAGE_OUT) : path.join(ROOT, 'package');

// The package's own manifest, README and licence are tracked in n8n-package/ (the folder n8n's scanner
// finds by the package name in the source repository, next to the nodes and credentials it lints).
const PKG = path.join(ROOT, 'n8n-package');
const manifest = JSON.parse(fs.readFileSync(path.join(PKG, 'package.json'), 'utf8'));

function buildIcons() {
	return src(['n8n-package/nodes/**/*.{png,svg}', 'n8n-package/credentials/**/*.{png,svg}'], { base: '.', allowEmpty: true, encoding: false }).pipe(dest('dist'));
}

function cleanPackage(done) {
	fs.rmSync(OUT, { recursive: true, force: true });
	done();
}

/** Compiled JavaScript only: no source maps, no TypeScript, nothing but nodes and credentials. */
function packageCode() {
	for (const file of [...manifest.n8n.credentials, ...manifest.n8n.nodes]) {
		if (!fs.existsSync(path.join(ROOT, 'dist/n8n-package', file.replace(/^dist\//, '')))) throw new Error(`${file} is missing: run tsc first (npm run build does).`);
	}
	return src(['dist/n8n-package/nodes/**/*.js', 'dist/n8n-package/credentials/**/*.js'], { base: 'dist/n8n-package' }).pipe(dest(path.join(OUT, 'dist')));
}

/** Icons and codex files (StoreSuppliers.node.json) next to the compiled node files. */
function packageAssets() {
	return src(['n8n-package/nodes/**/*.{svg,png}', 'n8n-package/nodes/**/*.node.json', 'n8n-package/credentials/**/*.{svg,png}'], {
		base: 'n8n-package',
		allowEmpty: true,
		encoding: false,
	}).pipe(dest(path.join(OUT, 'dist')));
}

function packageFiles(done) {
	fs.mkdirSync(OUT, { recursive: true });
	fs.writeFileSync(path.join(OUT, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
	fs.copyFileSync(path.join(PKG, 'README.md'), path.join(OUT, 'README.md'));
	fs.copyFileSync(path.join(PKG, 'LICENSE.md'), path.join(OUT, 'LICENSE.md'));
	done();
}

exports.manifest = manifest;
exports['build:icons'] = buildIcons;
exports['build:package'] = series(cleanPackage, parallel(packageCode, packageAssets), packageFiles);
exports.build = series(buildIcons, exports['build:package']);
