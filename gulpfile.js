// Assembles the n8n community package `n8n-nodes-store-suppliers` into package/ (gitignored), from what
// tsc compiled into dist/nodes and dist/credentials: its own manifest, no dependencies, n8n-workflow as
// the only peer. `npm pack ./package` (npm run pack:n8n) makes the tarball n8n installs.
// It also keeps copying the icons next to the compiled files in dist/, as before.
const fs = require('node:fs');
const path = require('node:path');
const { src, dest, series, parallel } = require('gulp');

const ROOT = __dirname;
// N8N_PACKAGE_OUT lets a test assemble the package somewhere of its own.
const OUT = process.env.N8N_PACKAGE_OUT ? path.resolve(process.env.N8N_PACKAGE_OUT) : path.join(ROOT, 'package');

const manifest = {
	name: 'n8n-nodes-store-suppliers',
	version: '4.4.0',
	description:
		'n8n nodes for Store Suppliers: connect dropshipping suppliers, import their products, send, retry and pay supplier orders, and a trigger for supplier orders that wait for review.',
	keywords: ['n8n-community-node-package', 'n8n', 'dropshipping', 'suppliers', 'store-suppliers'],
	license: 'MIT',
	author: {
		name: 'Store Suppliers maintainers',
		email: 'maintainers@users.noreply.a-seed-90a2630d.example',
	},
	engines: { node: '>=20.15' },
	files: ['dist'],
	n8n: {
		n8nNodesApiVersion: 1,
		strict: true,
		credentials: ['dist/credentials/StoreSuppliersApi.credentials.js'],
		nodes: [
			'dist/nodes/StoreSuppliers/StoreSuppliers.node.js',
			'dist/nodes/StoreSuppliersTrigger/StoreSuppliersTrigger.node.js',
		],
	},
	peerDependencies: { 'n8n-workflow': '*' },
};

function buildIcons() {
	return src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'], { base: '.', allowEmpty: true, encoding: false }).pipe(dest('dist'));
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
	return src(['nodes/**/*.{svg,png}', 'nodes/**/*.node.json', 'credentials/**/*.{svg,png}'], {
		base: '.',
		allowEmpty: true,
		encoding: false,
	}).pipe(dest(path.join(OUT, 'dist')));
}

function packageFiles(done) {
	fs.mkdirSync(OUT, { recursive: true });
	fs.writeFileSync(path.join(OUT, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
	fs.copyFileSync(path.join(ROOT, 'docs/n8n/package-README.md'), path.join(OUT, 'README.md'));
	fs.copyFileSync(path.join(ROOT, 'docs/n8n/LICENSE.md'), path.join(OUT, 'LICENSE.md'));
	done();
}

exports.manifest = manifest;
exports['build:icons'] = buildIcons;
exports['build:package'] = series(cleanPackage, parallel(packageCode, packageAssets), packageFiles);
exports.build = series(buildIcons, exports['build:package']);
