/**
 * Another commit of the service, built into a folder of its own, so a benchmark can run it beside this build in one
 * run (bench/dispatch-against.ts): `git archive` of the commit, its own `npm ci` and `npm run build:server`. The
 * folder is kept under the system's temporary folder, named by the commit, and reused while it holds a finished build.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

/** The folder a commit is built in (its `dist/server/main.js` is the service), built first unless it already was. */
export function builtCommit(commit: string, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): { root: string; commit: string } {
  const full = execFileSync('git', ['-C', root, 'rev-parse', '--verify', `${commit}^{commit}`], { encoding: 'utf8' }).trim();
  const dir = path.join(os.tmpdir(), `store-suppliers-build-${full.slice(0, 12)}`);
  const done = path.join(dir, '.built');
  if (fs.existsSync(done)) return { root: dir, commit: full };
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const run = (cmd: string, args: string[]) =>
    execFileSync(cmd, args, { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' } });
  log(`bench: building ${full.slice(0, 12)} in ${dir} (git archive, npm ci, npm run build:server)`);
  execFileSync('sh', ['-c', `git -C "${root}" archive ${full} | tar -x -C "${dir}"`], { stdio: 'inherit' });
  run('npm', ['ci']);
  run('npm', ['run', 'build:server', '--silent']);
  fs.writeFileSync(done, `${full}\n`);
  return { root: dir, commit: full };
}

/** The Node flags a build's service is started with (its own SERVICE_NODE_FLAGS), as that build's `npm start` does. */
export function serviceFlagsOf(buildRoot: string): string[] {
  const file = path.join(buildRoot, 'dist/server/platform/node-support.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return fs.existsSync(file) ? [...((require(file) as { SERVICE_NODE_FLAGS?: readonly string[] }).SERVICE_NODE_FLAGS ?? [])] : [];
}
