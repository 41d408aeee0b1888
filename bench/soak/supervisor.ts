/**
 * A service process under the soak's supervision, as a process supervisor runs one: started with its role, started
 * again whenever it exits without being asked to (a SIGKILL, a crash, a start that failed while its database was
 * away), each start waiting until it says it is ready.
 */
import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sleep } from './api';
import { soakConfig } from './config';
import { ROOT } from './programs';
import { SERVICE_NODE_FLAGS } from '../../server/platform/node-support';

export const MAIN = path.join(ROOT, 'dist/server/main.js');

export interface Incarnation {
  pid: number;
  startedAt: number;
  endedAt: number | null;
  /** What ended it: `SIGKILL` (the soak's fault), an exit code, or null while it runs. */
  end: string | null;
}

export class Supervised {
  private proc: ChildProcess | null = null;
  private stopping = false;
  private readyWaiters: Array<() => void> = [];
  readonly incarnations: Incarnation[] = [];
  /** Lines at level warn (40) or above, and lines that are not JSON (stderr), most recent last. */
  readonly complaints: string[] = [];
  /** Log lines seen, by message, for lines at warn or above. */
  readonly warnings = new Map<string, number>();
  baseUrl = '';
  ready = false;

  constructor(
    readonly name: string,
    readonly role: 'api' | 'worker' | 'all',
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  get pid(): number | null {
    return this.ready && this.proc?.pid ? this.proc.pid : null;
  }

  /** Starts it and waits until it is ready (at most `timeoutMs`; it keeps trying afterwards). */
  async start(timeoutMs = 120000): Promise<void> {
    this.spawnOnce();
    await this.untilReady(timeoutMs);
  }

  async untilReady(timeoutMs: number): Promise<void> {
    if (this.ready) return;
    await Promise.race([
      new Promise<void>((r) => this.readyWaiters.push(r)),
      sleep(timeoutMs).then(() => {
        if (!this.ready)
          throw new Error(`${this.name} was not ready within ${Math.round(timeoutMs / 1000)} s; it said last:\n${this.complaints.slice(-15).join('\n')}`);
      }),
    ]);
  }

  /** SIGKILL, as an OOM kill or `kill -9` does; the supervisor starts it again. */
  kill(): void {
    if (this.proc && this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill('SIGKILL');
  }

  /** Asks a running process for a heap snapshot (started with SOAK_HEAP_SNAPSHOTS); its pid, or null when none runs. */
  signalHeapSnapshot(): number | null {
    if (!this.proc?.pid || this.proc.exitCode !== null || this.proc.signalCode !== null) return null;
    this.proc.kill('SIGUSR2');
    return this.proc.pid;
  }

  /** No more restarts (a Ctrl-C reaches every process of the terminal's group at once: none may come back). */
  halt(): void {
    this.stopping = true;
  }

  /** SIGTERM, and no more restarts. */
  async stop(): Promise<void> {
    this.stopping = true;
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await Promise.race([exited, sleep(30000)]);
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  }

  private spawnOnce(): void {
    const heapDir = soakConfig().heapSnapshots;
    // SOAK_HEAP_SNAPSHOTS: SIGUSR2 makes V8 write a heap snapshot into that folder (bench/soak/heap.ts).
    const heapFlags = heapDir ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${heapDir}`] : [];
    const proc = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...heapFlags, MAIN, '--role', this.role], {
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.proc = proc;
    this.ready = false;
    const life: Incarnation = { pid: proc.pid ?? 0, startedAt: Date.now(), endedAt: null, end: null };
    this.incarnations.push(life);
    let buffer = '';
    // SOAK_LOG_DIR: every line each process writes, kept for reading a broken invariant's record afterwards.
    const logDir = process.env.SOAK_LOG_DIR;
    const logFile = logDir ? path.join(logDir, `${this.name.replace(/[^\w.-]+/g, '-')}.log`) : null;
    if (logFile) fs.mkdirSync(logDir!, { recursive: true });
    proc.stdout!.on('data', (chunk: Buffer) => {
      if (logFile) fs.appendFileSync(logFile, chunk);
      buffer += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        this.line(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
      }
    });
    proc.stderr!.on('data', (chunk: Buffer) => this.complain(chunk.toString('utf8').trim()));
    proc.once('exit', (code, signal) => {
      life.endedAt = Date.now();
      life.end = signal ?? `exit ${code}`;
      this.ready = false;
      if (this.stopping) return;
      // A supervisor's restart, a second later; a start that fails (the database away) is tried again the same way.
      setTimeout(() => {
        if (!this.stopping) this.spawnOnce();
      }, 1000);
    });
  }

  private line(text: string): void {
    if (!text.trim()) return;
    let l: { level?: number; msg?: string; baseUrl?: string };
    try {
      l = JSON.parse(text);
    } catch {
      this.complain(text);
      return;
    }
    if ((l.msg === 'listening' && this.role !== 'worker') || (l.msg === 'worker started' && this.role === 'worker')) {
      if (l.baseUrl) this.baseUrl = l.baseUrl;
      this.ready = true;
      for (const w of this.readyWaiters.splice(0)) w();
    }
    if ((l.level ?? 0) >= 40) {
      this.warnings.set(l.msg ?? '?', (this.warnings.get(l.msg ?? '?') ?? 0) + 1);
      this.complain(text);
    }
  }

  private complain(text: string): void {
    if (!text) return;
    this.complaints.push(text.slice(0, 2000));
    if (this.complaints.length > 200) this.complaints.splice(0, this.complaints.length - 200);
  }
}
