#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * Writes dotnet/src/StoreSuppliers.Client/Generated/*.g.cs from the service's OpenAPI document (Currencies.g.cs from
 * its ISO 4217 table, server/platform/currencies.ts).
 *   node dotnet/scripts/generate.cjs             builds the document in-process from the route table
 *                                                (needs `npm run build:server` first; no database is opened)
 *   node dotnet/scripts/generate.cjs --from URL  reads the document a running service serves
 *   --check                                      writes nothing; exits 1 when a checked-in file differs
 */
const fs = require('node:fs');
const path = require('node:path');
const { documentForArgs, root } = require('../../client/scripts/openapi-document.cjs');
const { emitCSharp } = require('./emit-csharp.cjs');
const { emitCurrenciesCs } = require('../../client/scripts/currencies.cjs');

const folder = path.join(root, 'dotnet/src/StoreSuppliers.Client/Generated');

async function main() {
  const args = process.argv.slice(2);
  const files = Object.entries(emitCSharp(await documentForArgs(args))).filter(([name]) => name.endsWith('.cs'));
  // ISO 4217's minor units, copied from the service's table (server/platform/currencies.ts).
  files.push(['Currencies.g.cs', emitCurrenciesCs()]);
  const stale = files.filter(([name, text]) => !fs.existsSync(path.join(folder, name)) || fs.readFileSync(path.join(folder, name), 'utf8') !== text);
  const extra = fs.existsSync(folder) ? fs.readdirSync(folder).filter((f) => f.endsWith('.g.cs') && !files.some(([name]) => name === f)) : [];
  if (args.includes('--check')) {
    if (stale.length || extra.length) {
      process.stderr.write(`${[...stale.map(([n]) => n), ...extra].map((n) => path.join('dotnet/src/StoreSuppliers.Client/Generated', n)).join(', ')} out of date: run \`npm run generate:dotnet\`.\n`);
      process.exit(1);
    }
    return;
  }
  fs.mkdirSync(folder, { recursive: true });
  for (const f of extra) fs.rmSync(path.join(folder, f));
  for (const [name, text] of files) fs.writeFileSync(path.join(folder, name), text);
  process.stdout.write(files.map(([n, t]) => `${path.relative(root, path.join(folder, n))}: ${t.split('\n').length} lines${stale.some(([s]) => s === n) ? '' : ' (unchanged)'}`).join('\n') + '\n');
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : err}\n`);
    process.exit(1);
  },
);
