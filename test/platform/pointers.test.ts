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
const globRe = (glob: string) =>
  new RegExp(
    `^${glob
      .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
      .replace(/\*\*\//g, '(?:.*/)?')
      .replace(/\*/g, '[^/]*')}$`,
  );
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

/**
 * Names kept true: every backticked word of docs/ and the README shaped like a name of code (an identifier, a
 * `Class.member`, a `call(…)`, a queue or event type such as `dispatch.supplier-order`, a table or `table.column`, a
 * file's name) is code: a word of the code's text outside its comments (SQL and strings included) under the folders
 * below, the migrations among them, or a file's name there. Shell names a doc defines in its own `sh` blocks count
 * too. NOT_CODE holds the few backticked words that name no code of ours, each with whose it is.
 */
const CODE_DIRS = ['server', 'nodes', 'credentials', 'client', 'console', 'dotnet', 'bench', 'test'];
const NOT_CODE = new Set([
  // Postgres and Citus
  'pg_stat_replication',
  'pg_stat_user_tables.n_dead_tup',
  'primary_slot_name',
  'citus.enable_unsafe_triggers',
  'create_distributed_table_concurrently',
  'synchronous_standby_names',
  'synchronous_commit',
  // Node, Linux and the C library
  'Atomics.wait',
  'v8.getHeapSpaceStatistics',
  'v8.setFlagsFromString',
  'prctl',
  'MALLOC_ARENA_MAX',
  // n8n: its settings, its engine, a lint rule, the type it gives custom nodes
  'N8N_CUSTOM_EXTENSIONS',
  'N8N_WEBHOOK_URL',
  'WorkflowExecute.handleNodeErrorOutput',
  'node-usable-as-tool',
  'CUSTOM.storeSuppliers',
  'CUSTOM.storeSuppliersTrigger',
  // CJ's API, where the docs say what the adapter leaves out
  'isSandbox',
  'payBalanceV2',
  'createOrderV3',
  'platformToken',
  // npm: a package not used, and an override's reference to a dependency's version
  'standardwebhooks',
  '$isolated-vm',
  // The reader's own file (the .NET walk's)
  'Program.cs',
]);

const NAME = /^\.?([A-Za-z_$][\w$]*(?:[.-][A-Za-z_$][\w$]*)*)(?:\([^()]*\))?$/;
const FILE_NAME = /^[\w.-]+\.(?:ts|js|mjs|cjs|cs|sql|json|md|ya?ml)$/;
const WORDS = /[A-Za-z_$][\w$]*(?:[.-][A-Za-z_$][\w$]*)*/g;
/** Block comments that open a line (not `/* cross-store: … *\/` inside a statement's text) and line comments. */
const withoutComments = (text: string) => text.replace(/^\s*\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/[^\n]*/gm, ' ');
const FENCED = /^\s*```(\w*)\n([\s\S]*?)^\s*```/gm;

function codeIndex() {
  const words = new Set<string>();
  const fileNames = new Set<string>();
  for (const f of [...fs.readdirSync(ROOT), ...['docs', 'n8n-package'].flatMap((d) => walk(path.join(ROOT, d), /./))]) fileNames.add(path.basename(f));
  for (const f of CODE_DIRS.flatMap((d) => walk(path.join(ROOT, d), /./))) {
    const base = path.basename(f);
    fileNames.add(base).add(base.replace(/(\.test)?\.\w+$/, ''));
    // This file is left out: its fixtures name what is gone.
    if (f === __filename || !/\.(ts|js|mjs|cjs|cs|sql|html|css)$/.test(base)) continue;
    for (const w of withoutComments(fs.readFileSync(f, 'utf8')).match(WORDS) ?? []) {
      words.add(w);
      // `process.env.SOAK_SEED`, `'dispatch.supplier-order'`: each part is a word too.
      if (/[.-]/.test(w)) for (const part of w.split(/[.-]/)) words.add(part);
    }
  }
  return { words, fileNames };
}
let index: ReturnType<typeof codeIndex> | undefined;

/** The backticked names of a doc (outside its fenced blocks) that are not code, as `file: name`. */
function staleNames(file: string, text: string): string[] {
  const { words, fileNames } = (index ??= codeIndex());
  const own = new Set([...text.matchAll(FENCED)].filter((m) => /^(sh|bash)$/.test(m[1])).flatMap((m) => m[2].match(WORDS) ?? []));
  const isCode = (name: string) =>
    FILE_NAME.test(name)
      ? fileNames.has(name) || words.has(name)
      : words.has(name) || fileNames.has(name) || own.has(name) || (name.includes('.') && name.split('.').every((part) => words.has(part)));
  const out: string[] = [];
  for (const m of text.replace(FENCED, '').matchAll(/`([^`\n]+)`/g)) {
    const name = NAME.exec(m[1])?.[1];
    // A commit (`c2e27fc`) is history, not a name.
    if (!name || NOT_CODE.has(name) || /^[0-9a-f]{7,40}$/.test(name) || isCode(name)) continue;
    out.push(`${file}: ${name}`);
  }
  return out;
}

test('every name of code the docs and the README put in backticks exists, and every word kept as not code is still used', () => {
  const docs = [...walk(path.join(ROOT, 'docs'), /\.md$/), path.join(ROOT, 'README.md')];
  const texts = docs.map((f) => ({ file: rel(f), text: fs.readFileSync(f, 'utf8') }));
  expect(texts.flatMap(({ file, text }) => staleNames(file, text))).toEqual([]);
  // A word no doc names any more leaves the list.
  const named = new Set(texts.flatMap(({ text }) => [...text.replace(FENCED, '').matchAll(/`([^`\n]+)`/g)].map((m) => NAME.exec(m[1])?.[1])));
  expect([...NOT_CODE].filter((w) => !named.has(w))).toEqual([]);
});

test('the name check finds what is stale: a function, a member, a queue, an event type, a column and a file that are gone', () => {
  const doc = [
    'The job reads its step in one statement (`workOf`), then `DispatchJob.runLater(id)` on `readback.supplier-parcel`,',
    'emits `supplierOrder.vanished` and sets `supplier_orders.sent_twice`; see `shop-floor.test.ts`.',
    'Kept: `workOfMany`, `DispatchJob.run`, `dispatch.supplier-order`, `supplierOrder.paused`, `supplier_orders.read_back_asked_at`,',
    '`shop-flow.test.ts`, `store-turns`, `X-API-Key`, `Idempotency-Key`, `Atomics.wait`, `c2e27fc`, `/api/store-orders/:storeId`, `npm run build`.',
    '```sh\nwait_for() { :; }\n```\n`wait_for` and `workOf` in a block stay unread:\n```ts\nworkOf(db)\n```',
  ].join('\n');
  expect(staleNames('docs/x.md', doc)).toEqual([
    'docs/x.md: workOf',
    'docs/x.md: DispatchJob.runLater',
    'docs/x.md: readback.supplier-parcel',
    'docs/x.md: supplierOrder.vanished',
    'docs/x.md: supplier_orders.sent_twice',
    'docs/x.md: shop-floor.test.ts',
    'docs/x.md: workOf',
  ]);
});
