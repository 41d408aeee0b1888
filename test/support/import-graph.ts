/**
 * The service's import graph, read from the source text (relative imports and re-exports of server/): its cycles,
 * and the imports that run from a lower layer back up. Layers, lowest first: platform, the migration files, the
 * suppliers and sandboxes, then each domain in the order server/composition.ts builds them, then everything that assembles them (the top-level
 * files, the console and the assistant). A domain may import from the layers below it and from itself only.
 *
 *   node --no-warnings test/support/import-graph.ts [serverDir] [--order identity,operator,...]   (Node 24; on 22: --experimental-strip-types)
 *
 * `--order` names the domains' order when composition.ts does not list them as a DOMAIN_MODULES array.
 * test/platform/layout.test.ts runs the same count and expects no cycle and no upward import.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface ImportEdge {
  from: string;
  to: string;
  /** `import type` / `export type`: no module is loaded for it at run time. */
  typeOnly: boolean;
}

export interface ImportReport {
  files: number;
  edges: ImportEdge[];
  /** Strongly connected groups of more than one file (every import counted), and of the value imports alone. */
  cycles: string[][];
  runtimeCycles: string[][];
  /** The same between folders (a domain, the platform, ...): groups of folders that import each other round. */
  folderCycles: string[][];
  /** Imports from a file to a file of a higher layer. */
  upward: ImportEdge[];
  order: string[];
}

const BOTTOM = ['platform', 'migrations', 'suppliers', 'sandboxes'];

function sources(dir: string, root = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p, root) : p.endsWith('.ts') ? [path.relative(root, p).split(path.sep).join('/')] : [];
  });
}

function resolve(known: Set<string>, from: string, spec: string): string | null {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  // The console names its imports as the browser loads them: words.js is words.ts.
  for (const c of [`${base}.ts`, `${base}/index.ts`, base, base.replace(/\.js$/, '.ts')]) if (known.has(c)) return c;
  return null;
}

/** The domains in the order composition.ts builds them: its DOMAIN_MODULES list. */
export function compositionOrder(serverDir: string): string[] {
  const file = path.join(serverDir, 'composition.ts');
  if (!fs.existsSync(file)) return [];
  const text = fs.readFileSync(file, 'utf8');
  const list = /DOMAIN_MODULES\s*=\s*\[([^\]]*)\]/.exec(text);
  if (!list) return [];
  // Each module is named for its folder: identityModule is server/identity.
  return list[1]
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean)
    .map((n) => n.replace(/Module$/, ''));
}

function stronglyConnected(nodes: string[], next: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of next.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) out.push(group.sort());
    }
  };
  for (const v of nodes) if (!idx.has(v)) visit(v);
  return out;
}

export function importGraph(serverDir: string, order = compositionOrder(serverDir)): ImportReport {
  const files = sources(serverDir);
  const known = new Set(files);
  const edges: ImportEdge[] = [];
  for (const f of files) {
    const text = fs.readFileSync(path.join(serverDir, f), 'utf8');
    for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?(?:[\w*{}\s,]*?\s+from\s+)?'(\.[^']+)'/gm)) {
      const to = resolve(known, f, m[3]);
      if (to && to !== f) edges.push({ from: f, to, typeOnly: !!m[2] });
    }
  }
  const graph = (all: boolean) => {
    const next = new Map<string, string[]>();
    for (const e of edges) if (all || !e.typeOnly) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
    return stronglyConnected(files, next);
  };
  const layerOf = (f: string) => {
    // The sandbox payment provider is a program of its own, wherever it lives (payments/sandbox before issue 33).
    const top = f.startsWith('payments/sandbox/') ? 'sandboxes' : f.includes('/') ? f.slice(0, f.indexOf('/')) : '';
    if (BOTTOM.includes(top)) return BOTTOM.indexOf(top);
    const d = order.indexOf(top);
    return d >= 0 ? BOTTOM.length + d : BOTTOM.length + order.length;
  };
  const upward = edges.filter((e) => layerOf(e.to) > layerOf(e.from));
  const folderOf = (f: string) => (f.startsWith('payments/sandbox/') ? 'payments/sandbox' : f.includes('/') ? f.slice(0, f.indexOf('/')) : '(top)');
  const folders = new Map<string, string[]>();
  for (const e of edges) if (folderOf(e.from) !== folderOf(e.to)) folders.set(folderOf(e.from), [...(folders.get(folderOf(e.from)) ?? []), folderOf(e.to)]);
  const folderCycles = stronglyConnected([...new Set(files.map(folderOf))], folders);
  return { files: files.length, edges, cycles: graph(true), runtimeCycles: graph(false), folderCycles, upward, order };
}

const invoked = process.argv[1] && /import-graph\.[tj]s$/.test(process.argv[1]);
if (invoked) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--order');
  const order = at >= 0 ? args.splice(at, 2)[1].split(',') : undefined;
  const dir = path.resolve(args[0] ?? 'server');
  const r = importGraph(dir, order);
  const show = (e: ImportEdge) => `  ${e.from} -> ${e.to}${e.typeOnly ? ' (type)' : ''}`;
  console.log(`${r.files} files, ${r.edges.length} imports; domains in order: ${r.order.join(', ') || '(none found)'}`);
  console.log(`import cycles (every import): ${r.cycles.length}`);
  for (const c of r.cycles) console.log(`  ${c.length} files: ${c.join(', ')}`);
  console.log(`import cycles (value imports only): ${r.runtimeCycles.length}`);
  for (const c of r.runtimeCycles) console.log(`  ${c.length} files: ${c.join(', ')}`);
  console.log(`import cycles between folders: ${r.folderCycles.length}`);
  for (const c of r.folderCycles) console.log(`  ${c.join(', ')}`);
  console.log(`imports from a lower layer up: ${r.upward.length} (${r.upward.filter((e) => e.typeOnly).length} of them type-only)`);
  for (const e of r.upward) console.log(show(e));
}
