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

const root = path.resolve(__dirname, '../..');
const target = path.join(root, 'client/src/generated/api.ts');

/** The document the service would serve, built from the same route table without starting it. */
function documentInProcess() {
  const dist = path.join(root, 'dist/server');
  if (!fs.existsSync(path.join(dist, 'composition.js'))) throw new Error('dist/server is missing: run `npm run build:server` first.');
  // The route table needs services, and services need a configuration; nothing here connects anywhere.
  process.env.APP_SECRET ||= 'generate-types-only-'.padEnd(48, 'x');
  process.env.DATABASE_URL ||= 'postgres://generate-types@127.0.0.1:1/none';
  process.env.LOG_LEVEL = 'silent';
  const composition = require(path.join(dist, 'composition.js'));
  const { loadConfig } = require(path.join(dist, 'platform/config.js'));
  const { createLogger } = require(path.join(dist, 'platform/logger.js'));
  const { buildOpenApi } = require(path.join(dist, 'platform/http/openapi.js'));
  const config = loadConfig();
  const services = composition.buildServices(config, composition.openDatabase(config.databaseUrl), createLogger('silent'), null, config.databaseUrl);
  const routes = composition.routeTable(services);
  return buildOpenApi(routes, { version: composition.VERSION, creditPrice: (a) => services.credits.price(a) });
}

async function documentFrom(url) {
  const res = await fetch(url.endsWith('.json') ? url : `${url.replace(/\/$/, '')}/api/store-suppliers/openapi.json`);
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  return res.json();
}

async function main() {
  const args = process.argv.slice(2);
  const from = args.includes('--from') ? args[args.indexOf('--from') + 1] : undefined;
  const text = emitTypes(from ? await documentFrom(from) : documentInProcess());
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
