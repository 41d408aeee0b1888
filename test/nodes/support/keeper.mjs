// Keeps one shared world of the node tests alive for the whole jest run: the sandbox supplier and a
// service, each a program of its own (dist/), started by this process, which the first test file of a
// folder spawns detached (shared-world.ts). Their output goes to <name>.log; once both answer,
// <name>.json names their addresses for every test file of the run. When the jest process that owns the
// run is gone, this process stops them and removes its files: nothing outlives the run, not even after
// Ctrl-C. Not a worker of jest: a test file that blocks its worker cannot stall the shared service.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

const { dir, name, owner, sandboxMain, serviceMain, serviceEnv, dataDir } = JSON.parse(process.env.NODE_TEST_WORLD ?? '{}');
const file = (ext) => path.join(dir, `${name}.${ext}`);
const log = fs.openSync(file('log'), 'a');
const children = [];
/** starting, then ready or failed: a program that exits later is news only while the world is ready. */
let state = 'starting';

function publish(content) {
  const tmp = `${file('json')}.${process.pid}`;
  fs.writeFileSync(tmp, JSON.stringify(content));
  fs.renameSync(tmp, file('json'));
}

/**
 * Once the run is over: the programs stop and the world's files go. By then jest's teardown has stopped Postgres, and
 * a service whose database is gone has been seen to hang in its exit (docs/decisions.md): whatever is still running
 * 15 s after SIGTERM is killed, so no world outlives its run.
 */
let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  state = 'stopping';
  const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
  const exited = running.map((child) => new Promise((resolve) => child.once('exit', resolve)));
  for (const child of running) child.kill('SIGTERM');
  const deadline = new Promise((resolve) => setTimeout(resolve, 15_000));
  await Promise.race([Promise.all(exited), deadline]);
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
  for (const ext of ['json', 'log', 'lock']) fs.rmSync(file(ext), { recursive: true, force: true });
  try {
    fs.rmdirSync(dir);
  } catch {
    // Another world of the run still has its files there.
  }
  process.exit(0);
}

/** Starts a program; answers what `readyOf` finds in the first stdout line that names it. */
function start(main, args, env, readyOf) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let ready = false;
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      fs.writeSync(log, `${line}\n`);
      if (ready) return;
      let found;
      try {
        found = readyOf(JSON.parse(line));
      } catch {
        found = undefined;
      }
      if (found) {
        ready = true;
        resolve(found);
      }
    });
    child.stderr.on('data', (chunk) => fs.writeSync(log, chunk));
    child.once('exit', (code) => {
      if (!ready) reject(new Error(`${path.basename(main)} exited with ${code} before it was ready (see ${file('log')})`));
      else if (state === 'ready') publish({ error: `${path.basename(main)} exited with ${code}` });
    });
  });
}

const ownerAlive = () => {
  try {
    process.kill(owner, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
};
setInterval(() => {
  if (!ownerAlive()) void stop();
}, 500);
process.once('SIGTERM', () => void stop());

try {
  const sandboxEnv = { ...process.env, SANDBOX_PORT: '0', SANDBOX_CONTROL: '1', SANDBOX_LOG_LEVEL: 'silent' };
  delete sandboxEnv.NODE_TEST_WORLD;
  const sandboxUrl = await start(sandboxMain, [], sandboxEnv, (line) => line.sandboxSupplier?.baseUrl);
  const baseUrl = await start(serviceMain, ['--role', 'all'], { ...serviceEnv, SANDBOX_SUPPLIER_URL: sandboxUrl }, (line) =>
    line.msg === 'listening' ? line.baseUrl : undefined,
  );
  publish({ baseUrl, sandboxUrl });
  state = 'ready';
} catch (err) {
  // The reason stays for the test files until the run is over; then stop() clears it.
  state = 'failed';
  publish({ error: String(err instanceof Error ? err.message : err) });
  for (const child of children) child.kill('SIGTERM');
}
