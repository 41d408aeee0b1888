/**
 * Another program of this project (a bundled sandbox) run as a child process of the service. It says where it
 * listens in one IPC message, `{ ready: { baseUrl } }`, or why it could not, `{ failed: { message, code } }`; it stops
 * on SIGTERM, and by itself when the IPC channel closes, so it never outlives the service, however the service ends.
 * It gets only the environment it is given: none of the service's secrets.
 */
import { spawn } from 'node:child_process';
import type { Logger } from './logger';

export interface ChildProgram {
  baseUrl: string;
  /** Stops it and waits until it exited (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}

type Message = { ready?: { baseUrl?: unknown }; failed?: { message?: unknown; code?: unknown } };

const READY_WITHIN_MS = 30_000;

/** Starts `script` (a built main.js) with `env`; rejects with the program's own error (its `code` kept) when it cannot listen. */
export function startChildProgram(script: string, env: Record<string, string>, what: string, log: Logger): Promise<ChildProgram> {
  // Its own process group: a Ctrl-C in the terminal reaches the service, which stops it after its own requests ended.
  const child = spawn(process.execPath, [script], { env, stdio: ['ignore', 'ignore', 'inherit', 'ipc'], detached: true });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stopping = false;
  const stop = async (graceMs = 5000) => {
    stopping = true;
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => fail(new Error(`${what} did not start within ${READY_WITHIN_MS / 1000} s`)), READY_WITHIN_MS);
    function fail(err: Error): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stop();
      reject(err);
    }
    child.on('message', (m: Message) => {
      if (m.failed) fail(Object.assign(new Error(String(m.failed.message)), { code: m.failed.code ?? undefined }));
      else if (m.ready && typeof m.ready.baseUrl === 'string' && !settled) {
        settled = true;
        clearTimeout(timer);
        resolve({ baseUrl: m.ready.baseUrl, stop });
      }
    });
    child.once('error', fail);
    child.once('exit', (code, signal) => {
      if (!settled) fail(new Error(`${what} exited (${signal ?? `code ${code}`}) before it listened`));
      else if (!stopping) log.error({ code, signal }, `${what} stopped unexpectedly`);
    });
  });
}
