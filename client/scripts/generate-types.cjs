#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * Writes client/src/generated/api.ts from the service's OpenAPI document, and client/src/generated/currencies.ts
 * from its ISO 4217 table (server/platform/currencies.ts).
 *   node client/scripts/generate-types.cjs            builds the document in-process from the route table
 *                                                     (needs `npm run build:server` first; no database is opened)
 *   node client/scripts/generate-types.cjs --from URL  reads the document a running service serves
 *   --check                                           writes nothing; exits 1 when the checked-in file differs
 */
const fs = require('node:fs');
const path = require('node:path');
const { emitTypes } = require('./emit-types.cjs');
const { documentForArgs, root } = require('./openapi-document.cjs');
const { emitCurrenciesTs } = require('./currencies.cjs');

const target = path.join(root, 'client/src/generated/api.ts');
// ISO 4217's minor units, copied from the service's table so the client never drifts from it.
const currencies = path.join(root, 'client/src/generated/currencies.ts');
// And for the console, which formats amounts in the browser (Intl's decimals follow display habits, not ISO 4217).
const consoleCurrencies = path.join(root, 'console/src/currencies.ts');

async function main() {
  const args = process.argv.slice(2);
  const files = [
    [target, emitTypes(await documentForArgs(args))],
    [currencies, emitCurrenciesTs()],
    [consoleCurrencies, emitCurrenciesTs()],
  ];
  const read = (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
  if (args.includes('--check')) {
    const stale = files.filter(([file, text]) => read(file) !== text);
    if (stale.length) {
      process.stderr.write(`${stale.map(([f]) => path.relative(root, f)).join(', ')} out of date: run \`npm run generate:client\`.\n`);
      process.exit(1);
    }
    return;
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  for (const [file, text] of files) {
    const current = read(file);
    fs.writeFileSync(file, text);
    process.stdout.write(`${path.relative(root, file)}: ${text.split('\n').length} lines${current === text ? ' (unchanged)' : ''}\n`);
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.message : err}\n`);
    process.exit(1);
  },
);
