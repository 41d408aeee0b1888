/**
 * What grew between two heap snapshots of one process (bench/soak/heap.ts):
 *   node --max-old-space-size=8192 dist/bench/soak/heap-diff.js <early.heapsnapshot> <late.heapsnapshot> [rows]
 * Prints, as Markdown, the heap's size in each, the groups (constructors, closures, strings, compiled code, …) whose
 * self size grew most, and the objects born after the early snapshot and still alive in the late one, grouped the
 * same way, each with one of its retainer chains: V8 keeps an object's id across snapshots of one process, so an id
 * above the early snapshot's highest is an object made since.
 */
import fs from 'node:fs';

interface Raw {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]]; edge_fields: string[]; edge_types: [string[], ...unknown[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

interface Heap {
  count: number;
  group(i: number): string;
  id(i: number): number;
  size(i: number): number;
  total: number;
  maxId: number;
  /** The first strong retainer of each node (-1: none) and the edge's name. */
  retainer: Int32Array;
  via: string[];
}

function load(file: string): Heap {
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as Raw;
  const nf = raw.snapshot.meta.node_fields;
  const ef = raw.snapshot.meta.edge_fields;
  const types = raw.snapshot.meta.node_types[0];
  const edgeTypes = raw.snapshot.meta.edge_types[0];
  const [T, N, ID, SIZE, EC] = ['type', 'name', 'id', 'self_size', 'edge_count'].map((f) => nf.indexOf(f));
  const [ET, EN, ETO] = ['type', 'name_or_index', 'to_node'].map((f) => ef.indexOf(f));
  const w = nf.length;
  const count = raw.nodes.length / w;
  const group = (i: number): string => {
    const type = types[raw.nodes[i * w + T]];
    const name = raw.strings[raw.nodes[i * w + N]];
    if (type === 'object' || type === 'closure' || type === 'native' || type === 'regexp')
      return `${type === 'closure' ? 'function ' : ''}${name.slice(0, 60)}`;
    if (type.includes('string')) return '(strings)';
    if (type === 'code') return '(compiled code)';
    if (type === 'array') return `(internal array) ${name.slice(0, 40)}`;
    if (type === 'hidden') return `(system) ${name.slice(0, 40)}`;
    return `(${type})`;
  };
  const retainer = new Int32Array(count).fill(-1);
  const via: string[] = new Array(count);
  let e = 0;
  let total = 0;
  let maxId = 0;
  for (let i = 0; i < count; i++) {
    total += raw.nodes[i * w + SIZE];
    maxId = Math.max(maxId, raw.nodes[i * w + ID]);
    const edges = raw.nodes[i * w + EC];
    for (let k = 0; k < edges; k++, e += ef.length) {
      const kind = edgeTypes[raw.edges[e + ET]];
      if (kind === 'weak' || kind === 'shortcut') continue;
      const to = raw.edges[e + ETO] / w;
      if (retainer[to] !== -1) continue;
      retainer[to] = i;
      const n = raw.edges[e + EN];
      via[to] = kind === 'element' || kind === 'hidden' ? `[${n}]` : raw.strings[n];
    }
  }
  return { count, group, id: (i) => raw.nodes[i * w + ID], size: (i) => raw.nodes[i * w + SIZE], total, maxId, retainer, via };
}

function bySelfSize(h: Heap, only?: (i: number) => boolean): Map<string, { n: number; bytes: number; sample: number }> {
  const m = new Map<string, { n: number; bytes: number; sample: number }>();
  for (let i = 0; i < h.count; i++) {
    if (only && !only(i)) continue;
    const g = h.group(i);
    const v = m.get(g) ?? { n: 0, bytes: 0, sample: i };
    v.n++;
    v.bytes += h.size(i);
    m.set(g, v);
  }
  return m;
}

function chain(h: Heap, i: number): string {
  const steps: string[] = [];
  for (let at = i, depth = 0; depth < 10 && h.retainer[at] !== -1; depth++) {
    steps.push(`${h.via[at]} ← ${h.group(h.retainer[at])}`);
    at = h.retainer[at];
  }
  return steps.join(' ← ').replace(/\|/g, '\\|');
}

const mb = (b: number) => (b / 1048576).toFixed(1);

function main(): void {
  const [earlyFile, lateFile, rowsArg] = process.argv.slice(2);
  if (!earlyFile || !lateFile) {
    process.stderr.write('usage: heap-diff <early.heapsnapshot> <late.heapsnapshot> [rows]\n');
    process.exit(2);
  }
  const rows = Number(rowsArg ?? 15);
  const early = load(earlyFile);
  const late = load(lateFile);
  const out: string[] = [];
  out.push(`Heap: ${mb(early.total)} MB in ${early.count} objects early, ${mb(late.total)} MB in ${late.count} objects late.`, '');
  const a = bySelfSize(early);
  const b = bySelfSize(late);
  const grew = [...b]
    .map(([g, v]) => ({ g, n0: a.get(g)?.n ?? 0, b0: a.get(g)?.bytes ?? 0, n1: v.n, b1: v.bytes }))
    .sort((x, y) => y.b1 - y.b0 - (x.b1 - x.b0));
  out.push('| Grew most (self size) | Objects early → late | MB early → late | MB grown |', '|---|---|---|---|');
  for (const r of grew.slice(0, rows)) out.push(`| ${r.g.replace(/\|/g, '\\|')} | ${r.n0} → ${r.n1} | ${mb(r.b0)} → ${mb(r.b1)} | ${mb(r.b1 - r.b0)} |`);
  const born = bySelfSize(late, (i) => late.id(i) > early.maxId);
  const bornTotal = [...born.values()].reduce((s, v) => s + v.bytes, 0);
  out.push('', `Born after the early snapshot and alive in the late one: ${mb(bornTotal)} MB.`, '');
  out.push('| Born since, still alive | Objects | MB | One retainer chain |', '|---|---|---|---|');
  for (const [g, v] of [...born].sort((x, y) => y[1].bytes - x[1].bytes).slice(0, rows))
    out.push(`| ${g.replace(/\|/g, '\\|')} | ${v.n} | ${mb(v.bytes)} | ${chain(late, v.sample)} |`);
  process.stdout.write(`${out.join('\n')}\n`);
}

main();
