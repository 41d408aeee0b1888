// @ts-check
'use strict';
/**
 * The service's OpenAPI document, for the client generators (JavaScript types, .NET models and services):
 * built in-process from the route table (needs `npm run build:server` first; no database is opened), or
 * read from a running service.
 */
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');

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

/** @param {string} url a base URL, or the document's own address */
async function documentFrom(url) {
  const res = await fetch(url.endsWith('.json') ? url : `${url.replace(/\/$/, '')}/api/store-suppliers/openapi.json`);
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  return res.json();
}

/** `--from URL` in argv reads a running service; otherwise the document is built in-process. */
async function documentForArgs(args) {
  const from = args.includes('--from') ? args[args.indexOf('--from') + 1] : undefined;
  return from ? documentFrom(from) : documentInProcess();
}

module.exports = { documentInProcess, documentFrom, documentForArgs, root };
