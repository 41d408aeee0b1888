/**
 * One real service and sandbox supplier per folder of node tests, shared by the folder's test files for
 * the whole jest run, so that a file per operation costs its shop, not a service start. The first file of
 * a folder to ask (in any jest worker) makes the world: it creates the database and spawns keeper.mjs,
 * detached, which starts both programs and names their addresses in a file; every other file of the run
 * waits for that file and uses the same world. Each file opens its own shop (account, store, connection),
 * so files share no records. The keeper ends the world when the jest run is over.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { call, createDatabase, freePort, Sandbox, sandboxAt, ServiceClient, ServiceOptions, serviceEnv, TEST_OPERATOR_TOKEN } from '../../support/harness';

const root = path.resolve(__dirname, '../../..');
const SERVICE_MAIN = path.join(root, 'dist/server/main.js');
const SANDBOX_MAIN = path.join(root, 'dist/server/sandboxes/supplier/main.js');

/** What a world's service needs beyond the defaults (the trigger's deliveries go to receivers on this machine). */
const WORLD_OPTIONS: Record<string, Omit<ServiceOptions, 'label'>> = {
  trigger: { privateTargets: true, env: { EVENT_POLL_MS: '200' } },
  // Start Sign-In needs the service's configured public address (never the request's Host).
  connection: { publicBaseUrl: true },
};

export interface World {
  svc: ServiceClient;
  sandbox: Sandbox;
  /** Every line the world's service has logged so far (its log is shared by the folder's files). */
  logLines(): string[];
}

/** The jest process of this run: a worker's parent, or this process when the tests run in band. */
const owner = process.send ? process.ppid : process.pid;

function runDir(): string {
  const run = crypto
    .createHash('sha256')
    .update(process.env.TEST_ADMIN_DATABASE_URL ?? '')
    .digest('hex')
    .slice(0, 12);
  const dir = path.join(os.tmpdir(), 'store-suppliers-node-worlds', `${owner}-${run}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Makes the world: its database here, its programs in the keeper. */
async function makeWorld(dir: string, name: string): Promise<void> {
  for (const main of [SERVICE_MAIN, SANDBOX_MAIN]) if (!fs.existsSync(main)) throw new Error(`${main} is missing: build first (npm run build:server)`);
  const options: ServiceOptions = { label: `node-${name}`, ...WORLD_OPTIONS[name] };
  const databaseUrl = await createDatabase(options.label);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-suppliers-svc-'));
  const port = options.publicBaseUrl ? await freePort() : 0;
  const config = {
    dir,
    name,
    owner,
    sandboxMain: SANDBOX_MAIN,
    serviceMain: SERVICE_MAIN,
    serviceEnv: serviceEnv(options, { databaseUrl, dataDir, port }),
    dataDir,
  };
  const keeper = spawn(process.execPath, [path.join(__dirname, 'keeper.mjs')], {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, NODE_TEST_WORLD: JSON.stringify(config) },
  });
  keeper.unref();
}

async function published(file: string, timeoutMs: number): Promise<{ baseUrl?: string; sandboxUrl?: string; error?: string }> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8'));
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`The shared world ${path.basename(file, '.json')} did not start within ${timeoutMs / 1000} s`);
}

/** The world of a folder of node tests (`storeOrder`, `trigger`, ...), made by whichever file asks first. */
export async function sharedWorld(name: string): Promise<World> {
  const dir = runDir();
  const file = (ext: string) => path.join(dir, `${name}.${ext}`);
  let first = true;
  try {
    fs.mkdirSync(file('lock'));
  } catch {
    first = false;
  }
  if (first) {
    try {
      await makeWorld(dir, name);
    } catch (err) {
      fs.writeFileSync(file('json'), JSON.stringify({ error: String(err) }));
      throw err;
    }
  }
  const world = await published(file('json'), 120_000);
  if (world.error || !world.baseUrl || !world.sandboxUrl) throw new Error(`The shared world ${name} failed: ${world.error}`);
  const { baseUrl, sandboxUrl } = world;
  return {
    svc: { baseUrl, operatorToken: TEST_OPERATOR_TOKEN, call: (method, urlPath, opts) => call(baseUrl, method, urlPath, opts) },
    sandbox: sandboxAt({ baseUrl: sandboxUrl, port: Number(new URL(sandboxUrl).port), close: async () => undefined }),
    logLines: () => (fs.existsSync(file('log')) ? fs.readFileSync(file('log'), 'utf8').split('\n').filter(Boolean) : []),
  };
}
