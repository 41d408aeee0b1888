#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * Builds dist/esm and dist/cjs (each with .d.ts) with the TypeScript of the repository root, so the
 * client needs no install of its own: `npm test` at the root and `npm pack` in client/ both run this.
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const here = path.resolve(__dirname, '..');
const tsc = require.resolve('typescript/bin/tsc', { paths: [here] });
const dist = path.join(here, 'dist');
fs.rmSync(dist, { recursive: true, force: true });

const run = (...args) => execFileSync(process.execPath, [tsc, '-p', path.join(here, 'tsconfig.json'), ...args], { stdio: 'inherit' });
// ESM: the package is "type": "module", so node16 resolution emits ES modules here.
run('--outDir', path.join(dist, 'esm'));
// CommonJS: the same sources; a package.json marker makes Node and TypeScript read this folder as CommonJS.
fs.mkdirSync(path.join(dist, 'cjs'), { recursive: true });
fs.writeFileSync(path.join(dist, 'cjs/package.json'), '{ "type": "commonjs" }\n');
run('--outDir', path.join(dist, 'cjs'), '--module', 'commonjs', '--moduleResolution', 'node10');
fs.writeFileSync(path.join(dist, 'esm/package.json'), '{ "type": "module" }\n');
