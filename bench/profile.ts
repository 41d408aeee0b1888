/**
 * Where a process spent its CPU during the load windows: its `--cpu-prof` profile cut to those windows, each
 * sample put in one category by the code it ran in, from the innermost frame out.
 */
import fs from 'node:fs';
import path from 'node:path';

export const CATEGORIES = [
  'pipeline',
  'validation',
  'logging',
  'metrics',
  'serialisation',
  'SQL',
  'domain',
  'Node (HTTP, streams, crypto)',
  'GC',
  'other',
] as const;
export type Category = (typeof CATEGORIES)[number];
const NODE: Category = 'Node (HTTP, streams, crypto)';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The category a frame's own code decides, or null when the frame says nothing (natives, Node's own code). */
const RULES: Array<[RegExp, Category]> = [
  [/node_modules\/(pino|sonic-boom|thread-stream|pino-std-serializers|@pinojs\/[a-z-]+)\/|platform\/logger\.js/, 'logging'],
  [/node_modules\/(prom-client|tdigest|bintrees)\/|platform\/metrics\.js/, 'metrics'],
  [/node_modules\/(ajv|ajv-formats|fast-uri)\/|platform\/http\/validation\.js/, 'validation'],
  [/node_modules\/(pg|pg-protocol|pg-types|pg-pool|postgres-[a-z]+|typeorm)\/|\/sql\.js$|platform\/(db|pagination)\.js/, 'SQL'],
  [/node_modules\/(koa-body|co-body|raw-body|inflation|iconv-lite)\//, 'serialisation'],
  [
    /node_modules\/(koa|@koa\/router|koa-compose|path-to-regexp|http-errors|statuses|accepts|type-is|mime-types|content-type|cookies|delegates|only|on-finished|encodeurl|escape-html|vary|negotiator|fresh|destroy|ee-first)\/|platform\/http\/|bench\/baseline-server\.js/,
    'pipeline',
  ],
  [/\/server\//, 'domain'],
];
/** Categories that own everything under them: the logger's JSON and writes are logging, pg's are SQL. */
const OWNING = new Set<Category>(['logging', 'metrics', 'validation', 'SQL']);
const JSON_CALLS = new Set(['stringify', 'parse']);
/**
 * Native writes: the kernel's socket and pipe work, and the time the thread is pre-empted by the reader it woke
 * (the profiler samples wall-clock time). Left out of the shares: /proc's system time measures the kernel's part.
 */
const WRITES = new Set(['writev', 'writeString', 'writeBuffer', 'writeUtf8String', 'writeLatin1String', 'writeAsciiString']);

function strong(frame: ProfileNode['callFrame']): Category | null {
  for (const [re, cat] of RULES) if (re.test(frame.url)) return cat;
  return null;
}

/**
 * The first known code from the sampled frame outwards decides, except that Node's own frames (HTTP, streams,
 * sockets and their writes, crypto) and JSON calls at the top of the stack count as such unless the logger,
 * metrics, validation or SQL code called them.
 */
function categorise(nodeId: number, byId: Map<number, ProfileNode>, parent: Map<number, number>): Category | 'idle' {
  const leaf = byId.get(nodeId)!.callFrame;
  if (leaf.functionName === '(idle)' || (!leaf.url && WRITES.has(leaf.functionName))) return 'idle';
  if (leaf.functionName === '(garbage collector)') return 'GC';
  if (leaf.functionName === '(program)') return 'other';
  let top: Category | null = null;
  for (let id: number | undefined = nodeId; id !== undefined; id = parent.get(id)) {
    const frame = byId.get(id)!.callFrame;
    const cat = strong(frame);
    if (cat) return OWNING.has(cat) || !top ? cat : top;
    if (!top && !frame.url && JSON_CALLS.has(frame.functionName)) top = 'serialisation';
    if (!top && frame.url.startsWith('node:')) top = NODE;
  }
  return top ?? 'other';
}

export type Breakdown = Record<Category, number>;

/** Share of the busy samples (neither idle nor in a native write) in each category within `windows` (monotonic µs). */
export function breakdown(profileDir: string, windows: Array<[number, number]>): Breakdown | null {
  const file = fs.existsSync(profileDir) ? fs.readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile')) : undefined;
  if (!file) return null;
  const profile = JSON.parse(fs.readFileSync(path.join(profileDir, file), 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const memo = new Map<number, Category | 'idle'>();
  const time = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Breakdown;
  let busy = 0;
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (!windows.some(([a, b]) => t >= a && t <= b)) continue;
    const id = profile.samples[i];
    let cat = memo.get(id);
    if (!cat) memo.set(id, (cat = categorise(id, byId, parent)));
    if (cat === 'idle') continue;
    const dt = profile.timeDeltas[i + 1] ?? profile.timeDeltas[i];
    time[cat] += dt;
    busy += dt;
  }
  if (!busy) return null;
  for (const c of CATEGORIES) time[c] /= busy;
  return time;
}

/** One process's CPU per unit: the profile's shares of its user time, and its system time. */
export interface Spent {
  shares: Breakdown;
  userUs: number;
  systemUs: number;
}

/** "kernel 120 (baseline 50), logging 31 (baseline 0), …": µs per unit of each category, sorted by the difference to the baseline. */
export function describe(service: Spent, bare: Spent | null): string {
  const parts = (x: Spent): Record<string, number> => ({
    'kernel (system time)': x.systemUs,
    ...Object.fromEntries(CATEGORIES.map((c) => [c, x.shares[c] * x.userUs])),
  });
  const s = parts(service);
  const b = bare ? parts(bare) : null;
  return Object.keys(s)
    .filter((c) => s[c] >= 0.5 || (b?.[c] ?? 0) >= 0.5)
    .sort((x, y) => s[y] - (b?.[y] ?? 0) - (s[x] - (b?.[x] ?? 0)))
    .map((c) => `${c} ${s[c].toFixed(0)}${b ? ` (baseline ${b[c].toFixed(0)})` : ''}`)
    .join(', ');
}
