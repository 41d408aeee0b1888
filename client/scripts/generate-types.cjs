#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * Writes client/src/generated/api.ts from the service's OpenAPI document.
 *   node client/scripts/generate-types.cjs            builds the document in-process from the route table
 *                                                     (needs `npm run build:server` first; no database is opened)
 *   node client/scripts/generate-types.cjs --from URL  reads the document a running service serves
 *   --check                                           writes nothing; exits 1 when the checked-in file differs
 */
const fs = require('node:fs');
const path = require('node:path');
const { emitTypes } = require('./emit-types.cjs');
const { documentForArgs, root } = require('./openapi-document.cjs');

const target = path.join(root, 'client/src/generated/api.ts');

async function main() {
  const args = process.argv.slice(2);
  const text = emitTypes(await documentForArgs(args));
  const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
  if (args.includes('--check')) {
    if (current !== text) {
      process.stderr.write(`${path.relative(root, target)} is out of date: run \`npm run generate:client\`.\n`);
      process.exit(1);
    }
    return;
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, text);
  process.stdout.write(`${path.relative(root, target)}: ${text.split('\n').length} lines${current === text ? ' (unchanged)' : ''}\n`);
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.message : err}\n`);
    process.exit(1);
  },
);
