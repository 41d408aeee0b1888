/** The load the benchmarks put on a route: autocannon, and alternating rounds metered for CPU. */
import { CpuUse, emptyUse, metered } from './cpu';
// autocannon ships no types; this is the part of its result the benchmarks read.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Promise<LoadResult>;

interface LoadResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

export interface Load {
  reqPerSec: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  /** Socket errors and time-outs: a request that never got an answer. */
  errors: number;
  /** What its process and the database spent on it, when the process was metered (LoadTarget.pid). */
  cpu?: CpuUse;
}

export const CONNECTIONS = 50;
export const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

/** One request autocannon sends; `setupRequest` may change it before each send (a fresh body, a fresh signature). */
export interface LoadRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: { method: string; path: string; headers: Record<string, string>; body: string | Buffer }) => {
    method: string;
    path: string;
    headers: Record<string, string>;
    body: string | Buffer;
  };
}

export async function load(
  url: string,
  headers: Record<string, string> = {},
  opts: { method?: string; body?: string; connections?: number; seconds?: number; requests?: LoadRequest[] } = {},
): Promise<Load> {
  const r = await autocannon({
    url,
    connections: opts.connections ?? CONNECTIONS,
    duration: opts.seconds ?? DURATION_SECONDS,
    headers,
    method: opts.method ?? 'GET',
    body: opts.body,
    ...(opts.requests ? { requests: opts.requests } : {}),
  });
  return {
    reqPerSec: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

/** One side of a comparison: the address, its headers and load options. */
export interface LoadTarget {
  url: string;
  headers?: Record<string, string>;
  opts?: Parameters<typeof load>[2];
  /** The process answering, metered for CPU from /proc; `profileDir`: where it writes its --cpu-prof profile. */
  pid?: number;
  profileDir?: string;
}

/**
 * Baseline and subject measured in alternating rounds (A B B A …), each side DURATION_SECONDS in all, so both
 * see the same machine: on a shared machine the load moves within seconds. Rates are totals ÷ time; latencies
 * the median of the rounds; CPU the sum over each side's rounds, of its own process and of the database.
 */
export async function loadPair(baseline: LoadTarget, subject: LoadTarget, rounds = 4): Promise<{ baseline: Load; subject: Load }> {
  const seconds = Math.max(1, Math.round(DURATION_SECONDS / rounds));
  const runs: { baseline: Load[]; subject: Load[] } = { baseline: [], subject: [] };
  const cpu = { baseline: emptyUse(baseline.profileDir), subject: emptyUse(subject.profileDir) };
  const one = async (side: 'baseline' | 'subject') => {
    const t = side === 'baseline' ? baseline : subject;
    runs[side].push(await metered(t.pid, cpu[side], () => load(t.url, t.headers ?? {}, { ...t.opts, seconds })));
  };
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      await one('baseline');
      await one('subject');
    } else {
      await one('subject');
      await one('baseline');
    }
  }
  const merge = (xs: Load[], use: CpuUse): Load => ({
    reqPerSec: Math.round(xs.reduce((a, x) => a + x.total, 0) / (seconds * xs.length)),
    p50: median(xs.map((x) => x.p50)),
    p99: median(xs.map((x) => x.p99)),
    total: xs.reduce((a, x) => a + x.total, 0),
    non2xx: xs.reduce((a, x) => a + x.non2xx, 0),
    errors: xs.reduce((a, x) => a + x.errors, 0),
    cpu: use,
  });
  return { baseline: merge(runs.baseline, cpu.baseline), subject: merge(runs.subject, cpu.subject) };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** One load on one target, metered like a side of `loadPair`. */
export async function loadOn(target: LoadTarget): Promise<Load> {
  const use = emptyUse(target.profileDir);
  const got = await metered(target.pid, use, () => load(target.url, target.headers ?? {}, target.opts));
  return { ...got, cpu: use };
}
