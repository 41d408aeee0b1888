/**
 * Pointers kept true: every `server/…` and `test/…` path and every migration name that the docs (docs/**\/*.md) or a
 * code comment names exists, and so does every file a comment names relative to its own. A glob
 * (`test/dispatch/kill-*-steps.test.ts`) must match at least one file.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '../..');
const SKIP = new Set(['node_modules', 'dist', 'generated', 'package']);

function walk(dir: string, ext: RegExp): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (SKIP.has(e.name) || e.name.startsWith('.')) return [];
    return e.isDirectory() ? walk(p, ext) : ext.test(e.name) ? [p] : [];
  });
}
const rel = (p: string) => path.relative(ROOT, p).split(path.sep).join('/');

/** A path as docs and comments write it: not inside another path or an address (`dist/server/…`, `https://…/test/…`). */
const NAMED = /(?<![\w./@-])((?:server|test)\/[\w.\-/*]*[\w/*])/g;
const MIGRATION = /\b(\d{13}-[A-Z]\w*)\b/g;
const RELATIVE = /(?<![\w./-])(\.\.?\/[\w.\-/]*\.(?:ts|js|mjs|cjs))\b/g;

const everyFile = [...walk(path.join(ROOT, 'server'), /./), ...walk(path.join(ROOT, 'test'), /./)].map(rel);
const globRe = (glob: string) => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*\*\//g, '(?:.*/)?').replace(/\*/g, '[^/]*')}$`);
function exists(p: string): boolean {
  const clean = p.replace(/[/.]+$/, '');
  if (clean.includes('*')) return everyFile.some((f) => globRe(clean).test(f));
  return fs.existsSync(path.join(ROOT, clean));
}

/** The comments of a source file: block comments and line comments (not `//` inside a string or an address). */
const commentsOf = (text: string) => [...text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/[^\n]*/g)].map((m) => m[0]).join('\n');

function missing(file: string, text: string, relativeToo: boolean): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(NAMED)) if (!exists(m[1])) out.push(`${file}: ${m[1]}`);
  for (const m of text.matchAll(MIGRATION)) if (!exists(`server/migrations/${m[1]}.ts`)) out.push(`${file}: migration ${m[1]}`);
  if (relativeToo) {
    for (const m of text.matchAll(RELATIVE)) if (!exists(rel(path.resolve(path.dirname(path.join(ROOT, file)), m[1])))) out.push(`${file}: ${m[1]}`);
  }
  return out;
}

test('every server/ and test/ path and migration the docs name exists', () => {
  const docs = walk(path.join(ROOT, 'docs'), /\.md$/);
  expect(docs.length).toBeGreaterThan(10);
  expect(docs.flatMap((f) => missing(rel(f), fs.readFileSync(f, 'utf8'), false))).toEqual([]);
});

test('every path, migration and neighbouring file a code comment names exists', () => {
  const dirs = ['server', 'test', 'bench', 'nodes', 'credentials', 'console/src', 'client/src', 'client/scripts'];
  const files = dirs.flatMap((d) => walk(path.join(ROOT, d), /\.(ts|mjs|cjs|js)$/));
  expect(files.length).toBeGreaterThan(500);
  expect(files.flatMap((f) => missing(rel(f), commentsOf(fs.readFileSync(f, 'utf8')), true))).toEqual([]);
});

test('the check finds what is stale: a missing file, a folder named as a file, a migration, a glob that matches nothing', () => {
  const comment = [
    '// ./sql.ts maps its rows (now the folder ./sql/)',
    // Put together, so this file's own comments do not carry it.
    ['/', '* server/events/sql.ts, migration 1764979200350-StoreKeys, test/dispatch/kill-*-nothing.test.ts *', '/'].join(''),
    '// kept: server/dispatch/sql/write.ts, ./sql/write.ts, test/dispatch/kill-*-steps.test.ts, 1764806400332-EventsWrittenInCode',
  ].join('\n');
  expect(missing('server/dispatch/transition.ts', commentsOf(comment), true).sort()).toEqual([
    'server/dispatch/transition.ts: ./sql.ts',
    'server/dispatch/transition.ts: migration 1764979200350-StoreKeys',
    'server/dispatch/transition.ts: server/events/sql.ts',
    'server/dispatch/transition.ts: test/dispatch/kill-*-nothing.test.ts',
  ]);
});
