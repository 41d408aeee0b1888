/**
 * Heap snapshots of the service's processes during a soak (SOAK_HEAP_SNAPSHOTS): what the memory invariant sees as
 * resident memory, broken down by what the JavaScript heap holds. Each process runs with `--heapsnapshot-signal`, so
 * a snapshot is V8's own, written by the process itself; `bench/soak/heap-diff.ts` compares two of one process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sleep } from './api';
import type { Deployment } from './deployments';

export interface HeapSnapshot {
  process: string;
  pid: number;
  label: 'early' | 'late';
  /** Seconds into the load. */
  at: number;
  file: string;
  /** The process's VmRSS when it was asked, in MB. */
  rssMb: number | null;
  megabytes: number;
}

function rss(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** V8 names the file Heap.<date>.<time>.<pid>.<thread>.<sequence>.heapsnapshot. */
function filesOf(dir: string, pid: number): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot') && f.split('.')[3] === String(pid)) : [];
}

/** Done when it ends its JSON and its size held for a second (V8 streams it out). */
async function written(file: string, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  let last = -1;
  while (Date.now() < until) {
    await sleep(1000);
    const size = fs.existsSync(file) ? fs.statSync(file).size : -1;
    if (size > 0 && size === last) {
      const fd = fs.openSync(file, 'r');
      const end = Buffer.alloc(1);
      fs.readSync(fd, end, 0, 1, size - 1);
      fs.closeSync(fd);
      if (end.toString() === '}') return true;
    }
    last = size;
  }
  return false;
}

/** One snapshot of every running service process, one process at a time (each pauses its process for seconds). */
export async function takeHeapSnapshots(deployments: Deployment[], dir: string, label: HeapSnapshot['label'], at: number): Promise<HeapSnapshot[]> {
  fs.mkdirSync(dir, { recursive: true });
  const taken: HeapSnapshot[] = [];
  for (const d of deployments) {
    for (const p of d.processes) {
      const pid = p.pid;
      if (!pid) continue;
      const before = new Set(filesOf(dir, pid));
      const rssMb = rss(pid);
      if (p.signalHeapSnapshot() !== pid) continue;
      let file: string | undefined;
      for (let i = 0; i < 20 && !file; i++) {
        await sleep(500);
        file = filesOf(dir, pid).find((f) => !before.has(f));
      }
      if (!file || !(await written(path.join(dir, file), 120000))) continue; // killed meanwhile (a fault)
      const megabytes = Math.round(fs.statSync(path.join(dir, file)).size / 1048576);
      taken.push({ process: p.name, pid, label, at, file: path.join(dir, file), rssMb, megabytes });
    }
  }
  return taken;
}

/** Pairs of one process's early and late snapshots: the ones a diff can name growth in. */
export function pairs(snapshots: HeapSnapshot[]): Array<[HeapSnapshot, HeapSnapshot]> {
  const out: Array<[HeapSnapshot, HeapSnapshot]> = [];
  for (const early of snapshots.filter((s) => s.label === 'early')) {
    const late = snapshots.find((s) => s.label === 'late' && s.pid === early.pid);
    if (late) out.push([early, late]);
  }
  return out;
}
