/**
 * One home per concern (docs/decisions.md, "Code layout"; docs/architecture.md): checked on the source itself, so a
 * change that puts SQL, a fake, a platform import or an `any` back in the wrong place, writes another domain's table,
 * imports another domain's data module, or lets a file grow past one sitting fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DOMAIN_MODULES, MIGRATIONS } from '../../server/composition';
import { EVENT_TYPES, INTERNAL_EVENT_TYPES, TEST_EVENT_TYPE } from '../../server/events/types';
import { importGraph } from '../support/import-graph';

const SERVER = path.join(__dirname, '../../server');

function sources(dir = SERVER): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}
const rel = (p: string) => path.relative(SERVER, p).split(path.sep).join('/');
const files = sources().map((p) => ({ name: rel(p), text: fs.readFileSync(p, 'utf8') }));

test('route files hold no any: handlers are typed from their schemas', () => {
  const routeFiles = files.filter((f) => /^[a-z-]+\/routes\.ts$/.test(f.name));
  expect(routeFiles.length).toBeGreaterThanOrEqual(7);
  const offending = routeFiles.filter((f) => /(:\s*any\b|<any\b|\bany>|as any\b|no-explicit-any)/.test(f.text)).map((f) => f.name);
  expect(offending).toEqual([]);
});

/** A domain's data module: its `sql.ts`, or the files of its `sql/` folder. */
const isDataModule = (name: string) => /^[a-z-]+\/(sql\.ts|sql\/[\w-]+\.ts)$/.test(name);
const domainOf = (name: string) => (name.includes('/') ? name.slice(0, name.indexOf('/')) : '');

test("raw SQL lives in each domain's data module (and the platform and migrations)", () => {
  // composition.ts: the readiness probe's SELECT 1; demo.ts: the advisory lock that keeps two starts from seeding twice.
  const allowed = (name: string) =>
    isDataModule(name) || name.startsWith('platform/') || name.startsWith('migrations/') || name === 'composition.ts' || name === 'demo.ts';
  const offending = files.filter((f) => !allowed(f.name) && /(\.query\(|\brows(<[^>]*>)?\(|\baffected\()/.test(f.text)).map((f) => f.name);
  expect(offending).toEqual([]);
  expect(files.some((f) => f.name.endsWith('/sql.ts'))).toBe(true);
  expect(files.some((f) => /\/sql\/[\w-]+\.ts$/.test(f.name))).toBe(true);
  // One data module per domain: a sql.ts or a sql/ folder, not both.
  const both = [...new Set(files.map((f) => domainOf(f.name)))].filter(
    (d) => files.some((f) => f.name === `${d}/sql.ts`) && files.some((f) => f.name.startsWith(`${d}/sql/`)),
  );
  expect(both).toEqual([]);
});

test("no domain imports another domain's data module: effects go through its service or a step its index publishes", () => {
  const importsOf = (text: string) => [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gm)].map((m) => m[1]);
  const dataModuleOf = (from: string, spec: string) => {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
    return /^[a-z-]+\/sql(\/[\w-]+)?$/.test(target) ? target : null;
  };
  const offending = files.flatMap((f) =>
    importsOf(f.text).flatMap((spec) => {
      const target = dataModuleOf(f.name, spec);
      return target && domainOf(target) !== domainOf(f.name) ? [`${f.name} -> ${target}`] : [];
    }),
  );
  expect(offending).toEqual([]);
  // The rule can see what it looks for.
  expect(dataModuleOf('orders/service.ts', '../stores/sql')).toBe('stores/sql');
  expect(dataModuleOf('dispatch/sql/write.ts', '../../orders/sql/parts')).toBe('orders/sql/parts');
  expect(importsOf("import { movePart } from '../orders/sql';")).toEqual(['../orders/sql']);
});

test('each domain reaches its tables only through its data module: no repository, query builder or entity-manager finder elsewhere, and no entities', () => {
  const home = (name: string) => isDataModule(name) || name.startsWith('migrations/') || name === 'platform/db.ts';
  const typeormFinder =
    /\.getRepository\(|createQueryBuilder\(|\.manager\b|\b(?:tx|em|manager|trx)\.(?:find\w*|save|insert|update|delete|remove|count\w*|exists\w*|increment|decrement|upsert|preload|merge|create)\(|import \{[^}]*\b(?:In|IsNull|Not|Repository|FindOptionsWhere)\b[^}]*\} from 'typeorm'/;
  const offending = files.filter((f) => !home(f.name) && typeormFinder.test(f.text)).map((f) => f.name);
  expect(offending).toEqual([]);
  expect(files.filter((f) => /@Entity\(|from '\.\.?\/.*entities'/.test(f.text)).map((f) => f.name)).toEqual([]);
  // The rule can see what it looks for.
  expect(typeormFinder.test('await tx.getRepository(Store).findOneBy({ id })')).toBe(true);
});

test("nothing in the service reads pg-boss's own tables", () => {
  expect(files.filter((f) => /\bpgboss\./.test(f.text)).map((f) => f.name)).toEqual([]);
});

/** Where each import of a file leads: a path under server/ (relative imports), or the package's name. */
function importsOf(f: { name: string; text: string }): Array<{ spec: string; target: string | null }> {
  const specs = [...f.text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'";]*?from\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)|\brequire\(\s*'([^']+)'\s*\)/g)].map(
    (m) => m[1] ?? m[2] ?? m[3],
  );
  return specs.map((spec) => ({ spec, target: spec.startsWith('.') ? path.posix.normalize(path.posix.join(path.posix.dirname(f.name), spec)) : null }));
}

/**
 * The sandboxes are programs of their own (docs/decisions.md, "The sandboxes are programs of their own"): they stand
 * in for other companies' servers, so they share no code with the service, and the service reaches them only over HTTP.
 */
test('the sandboxes import nothing of the service, and the service imports nothing of them', () => {
  // Node's own modules and the HTTP server and logger they are built on; nothing from the project outside sandboxes/.
  const packages = new Set(['koa', '@koa/router', 'koa-body', 'pino']);
  const sandboxFiles = files.filter((f) => f.name.startsWith('sandboxes/'));
  expect(sandboxFiles.map((f) => f.name)).toEqual(expect.arrayContaining(['sandboxes/supplier/main.ts', 'sandboxes/payment-provider/main.ts']));
  const outside = sandboxFiles.flatMap((f) =>
    importsOf(f)
      .filter(({ spec, target }) => (target === null ? !spec.startsWith('node:') && !packages.has(spec) : !target.startsWith('sandboxes/')))
      .map(({ spec }) => `${f.name}: ${spec}`),
  );
  expect(outside).toEqual([]);
  const intoSandboxes = files
    .filter((f) => !f.name.startsWith('sandboxes/'))
    .flatMap((f) =>
      importsOf(f)
        .filter(({ target }) => target?.startsWith('sandboxes/'))
        .map(({ spec }) => `${f.name}: ${spec}`),
    );
  expect(intoSandboxes).toEqual([]);
  // The rule can see what it looks for.
  expect(importsOf({ name: 'sandboxes/supplier/types.ts', text: "import type { Destination } from '../../suppliers/adapter';" })).toEqual([
    { spec: '../../suppliers/adapter', target: 'suppliers/adapter' },
  ]);
  expect(importsOf({ name: 'main.ts', text: "import {\n  startSandboxSupplier,\n} from './sandboxes/supplier';" })[0].target).toBe('sandboxes/supplier');
});

/**
 * Files readable in one sitting (issue 33): no source file over 250 lines, no route file over 200. The files still
 * over are named, so none is added to them; each leaves the list as its domain is split.
 */
test('no source file over 250 lines, no route file over 200, but those still named here', () => {
  const stillOver: string[] = [];
  // The client, the n8n nodes and the console too (the client's generated types excepted).
  const others = ['client/src', 'client/scripts', 'nodes', 'console/src'].flatMap((dir) =>
    fs
      .readdirSync(path.join(SERVER, '..', dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.(ts|cjs|mjs|js)$/.test(f) && !f.startsWith('generated'))
      .map((f) => ({ name: `../${dir}/${f}`, text: fs.readFileSync(path.join(SERVER, '..', dir, f), 'utf8') })),
  );
  expect(others.some((f) => f.name.startsWith('../nodes/')) && others.some((f) => f.name.startsWith('../console/'))).toBe(true);
  const over = [...files, ...others].filter((f) => f.text.split('\n').length - 1 > (/(^|\/)[\w-]*routes\.ts$/.test(f.name) ? 200 : 250)).map((f) => f.name);
  expect(over.filter((name) => !stillOver.includes(name))).toEqual([]);
  // A file that came under its limit leaves the list.
  expect(stillOver.filter((name) => !over.includes(name))).toEqual([]);
});

test('the supplier contract stands alone, and test fakes are not shipped', () => {
  for (const name of ['suppliers/adapter.ts', 'suppliers/shapes.ts', 'suppliers/description.ts']) {
    const contract = files.find((f) => f.name === name)!;
    expect(
      importsOf(contract)
        .map(({ spec }) => spec)
        .filter((spec) => !/^\.\/(shapes|description)$/.test(spec)),
    ).toEqual([]);
  }
  expect(files.filter((f) => /fake/i.test(f.name)).map((f) => f.name)).toEqual([]);
});

test('one word per concept: catalogue and notifications folders; integrationId only at the wire', () => {
  expect(fs.existsSync(path.join(SERVER, 'catalog'))).toBe(false);
  expect(fs.existsSync(path.join(SERVER, 'webhooks'))).toBe(false);
  const wire = (name: string) => name.endsWith('/routes.ts') || name.endsWith('/schemas.ts') || name === 'dispatch/views.ts';
  expect(files.filter((f) => !wire(f.name) && /integrationId/.test(f.text)).map((f) => f.name)).toEqual([]);
});

test("each queue is declared once, in its domain's queues.ts", () => {
  const declared = files.filter((f) => /name: [A-Z_.]+,\s*policy:/.test(f.text)).map((f) => f.name);
  expect(declared.length).toBeGreaterThan(0);
  expect(declared.filter((n) => !n.endsWith('/queues.ts'))).toEqual([]);
});

test("the specified top level: nodes/ and credentials/ at the root, the README's map names every entry", () => {
  const ROOT = path.join(__dirname, '../..');
  for (const entry of ['package.json', 'tsconfig.json', 'nodes', 'credentials', 'server', 'test', 'gulpfile.js', 'README.md']) {
    expect(fs.existsSync(path.join(ROOT, entry))).toBe(true);
  }
  // n8n-package/ keeps only the package's own files; the sources are at the root.
  expect(
    fs
      .readdirSync(path.join(ROOT, 'n8n-package'))
      .filter((e) => e !== 'node_modules')
      .sort(),
  ).toEqual(['LICENSE.md', 'README.md', 'eslint.config.mjs', 'package.json']);
  const ignored = new Set(['.git', 'node_modules', 'dist', 'package', '.data', '.gitignore']);
  const present = fs
    .readdirSync(ROOT, { withFileTypes: true })
    .filter((e) => !ignored.has(e.name))
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name));
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const map = /## Map of the tree\s+```\n([\s\S]*?)```/.exec(readme)![1];
  // An entry's line names it first; an indented line goes on with the entry above.
  const named = map
    .split('\n')
    .filter((line) => line && !/^\s/.test(line))
    .map((line) => line.split(/\s+/)[0]);
  expect(named.sort()).toEqual(present.sort());
});

const DOMAINS = ['identity', 'operator', 'rates', 'stores', 'events', 'connections', 'notifications', 'catalogue', 'orders', 'payments', 'dispatch'];
const migrationFiles = files.filter((f) => /^migrations\/\d+-\w+\.ts$/.test(f.name));
/** A migration file's class name, as TypeORM knows it: `1764...-Name.ts` holds `Name1764...`. */
const classOf = (name: string) => {
  const [, stamp, word] = /^migrations\/(\d+)-(\w+)\.ts$/.exec(name)!;
  return `${word}${stamp}`;
};

test('every domain assembles itself from its index.ts module and keeps its schemas (schemas.ts)', () => {
  const missing = DOMAINS.flatMap((d) => ['index.ts', 'schemas.ts'].map((f) => `${d}/${f}`)).filter((f) => !files.some((x) => x.name === f));
  expect(missing).toEqual([]);
  expect(
    DOMAIN_MODULES.map((m) => m.name)
      .filter((n) => n !== 'suppliers')
      .sort(),
  ).toEqual([...DOMAINS].sort());
  for (const d of DOMAINS)
    expect({ d, declares: new RegExp(`export const ${d}Module = domainModule\\(`).test(files.find((f) => f.name === `${d}/index.ts`)!.text) }).toEqual({
      d,
      declares: true,
    });
});

test('every migration file is owned by exactly one domain, and the runner takes them in timestamp order', () => {
  expect(migrationFiles.length).toBeGreaterThan(30);
  const owners = new Map<string, string[]>();
  for (const m of DOMAIN_MODULES) for (const mig of m.migrations) owners.set(new mig().name, [...(owners.get(new mig().name) ?? []), m.name]);
  const owned = migrationFiles.map((f) => ({ file: f.name, owners: owners.get(classOf(f.name)) ?? [] }));
  expect(owned.filter((o) => o.owners.length !== 1)).toEqual([]);
  expect([...owners.keys()].sort()).toEqual(migrationFiles.map((f) => classOf(f.name)).sort());
  const stamps = MIGRATIONS.map((m) => Number(/(\d+)$/.exec(new m().name)![1]));
  expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
});

test('the composition and the workers are one list of domains; no closure refers to a domain built later', () => {
  const composition = files.find((f) => f.name === 'composition.ts')!.text;
  // A short file: 130 lines before the formatter (issue 55), which writes its one list and two objects one entry a line.
  expect(composition.split('\n').length).toBeLessThanOrEqual(170);
  // No service is built there: each domain's module builds its own (the platform's pieces are made there).
  expect(composition.match(/\bnew [A-Z]\w+\(/g)).toEqual(['new Error(', 'new Secrets(', 'new Cursors(', 'new Standbys(']);
  expect(composition).toMatch(/export const DOMAIN_MODULES = \[/);
  // Each module is handed only the domains it names in `needs`, all built before it (checked again when it compiles).
  const built = new Set<string>();
  for (const m of DOMAIN_MODULES) {
    expect({ module: m.name, missing: m.needs.filter((n) => !built.has(n)) }).toEqual({ module: m.name, missing: [] });
    built.add(m.name);
  }
  const workers = files.find((f) => f.name === 'workers.ts')!.text;
  expect(workers).not.toMatch(/\bnew [A-Z]|\.work</);
  expect(workers).not.toMatch(/from '\.\/(identity|connections|notifications|catalogue|dispatch|orders|events)\/queues'[\s\S]*_QUEUES/);
});

test('the import graph of the domains has no cycle, and nothing imports from a layer above its own', () => {
  const g = importGraph(SERVER);
  expect(g.order).toEqual(DOMAIN_MODULES.map((m) => m.name));
  const ours = (f: string) => DOMAINS.includes(domainOf(f));
  expect(g.cycles.filter((c) => c.some(ours))).toEqual([]);
  expect(g.folderCycles).toEqual([]);
  expect(g.upward.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
});

test('the console and the benchmarks import in no circle either (every import, type-only ones too)', () => {
  for (const dir of ['console/src', 'bench']) {
    const g = importGraph(path.join(__dirname, '../..', dir), []);
    // The graph reads the console's imports as the browser names them (words.js for words.ts).
    expect({ dir, read: g.edges.length > g.files }).toEqual({ dir, read: true });
    expect({ dir, cycles: g.cycles }).toEqual({ dir, cycles: [] });
  }
});

describe('docs/architecture.md, the map, is true', () => {
  const text = fs.readFileSync(path.join(__dirname, '../../docs/architecture.md'), 'utf8');
  const rows = [...text.matchAll(/^\|([^|]*)\|([^|]*)\|([^|]*)\|([^|]*)\|$/gm)]
    .map((m) => m.slice(1).map((cell) => cell.trim()))
    .filter(([domain]) => /^[a-z]+$/.test(domain))
    .map(([domain, tables, events, queues]) => ({ domain, tables: list(tables), events: list(events), queues: list(queues) }));
  function list(cell: string): string[] {
    return cell
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
  }
  /** The tables a migration creates (ListCounts names its counts tables in its list). */
  const created = (f: { text: string }) =>
    [...f.text.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?"?(\w+)/g), ...f.text.matchAll(/counts: '(\w+)'/g)].map((m) => m[1]);
  /** Migrations written per milestone (before ImportJobCredit) created several domains' tables at once. */
  const milestone = (file: string) => Number(/^migrations\/(\d+)/.exec(file)![1]) < 1764374400000;

  test('it names every domain, and every table the migrations create once', () => {
    expect(rows.map((r) => r.domain).sort()).toEqual([...DOMAINS, 'platform'].sort());
    const all = migrationFiles.flatMap(created);
    const mapped = rows.flatMap((r) => r.tables);
    expect([...mapped].sort()).toEqual([...new Set(all)].sort());
    expect(mapped.length).toBe(new Set(mapped).size);
  });

  test('each table is created by a migration its domain owns (or a milestone one), and written only from its data module', () => {
    const ownerOf = new Map(DOMAIN_MODULES.flatMap((m) => m.migrations.map((mig) => [new mig().name, m.name] as const)));
    for (const r of rows) {
      for (const table of r.tables) {
        const by = migrationFiles.filter((f) => created(f).includes(table)).map((f) => f.name);
        const fits = by.some((f) => milestone(f) || ownerOf.get(classOf(f)) === r.domain || r.domain === 'platform');
        expect({ table, createdBy: by, fits }).toEqual({ table, createdBy: by, fits: true });
        const writers = files
          .filter((f) => !f.name.startsWith('migrations/') && new RegExp(`(INSERT INTO|UPDATE|DELETE FROM) ${table}\\b`).test(f.text))
          .map((f) => f.name);
        const home = (name: string) => (r.domain === 'platform' ? name.startsWith('platform/') : domainOf(name) === r.domain && isDataModule(name));
        expect({ table, foreignWriters: writers.filter((w) => !home(w)) }).toEqual({ table, foreignWriters: [] });
      }
    }
  });

  test('each event type is listed under the domain that records it, and only that domain writes events of its resources', () => {
    const listed = rows.flatMap((r) => r.events);
    expect([...listed].sort()).toEqual([...Object.keys(EVENT_TYPES), ...Object.keys(INTERNAL_EVENT_TYPES), TEST_EVENT_TYPE].sort());
    for (const r of rows) {
      for (const kind of new Set(r.events.map((e) => e.split('.')[0]))) {
        // An event's resource key starts with its kind: `'storeOrder:' || o.id`, or the test events' `subscription:`.
        const writers = files
          .filter((f) => new RegExp(`['\`]${kind}:`).test(f.text) && /outboxStep\(|INSERT INTO event_outbox/.test(f.text))
          .map((f) => domainOf(f.name));
        expect({ kind, writers: [...new Set(writers)] }).toEqual({ kind, writers: [r.domain] });
      }
    }
  });

  test('a data module reads tables of a domain built after its own only as "Reads up the list" says', () => {
    const ownerOf = new Map(rows.flatMap((r) => r.tables.map((t) => [t, r.domain] as const)));
    const order = DOMAIN_MODULES.map((m) => m.name as string);
    const upward = (f: { name: string; text: string }) =>
      [...f.text.matchAll(/\b(?:FROM|JOIN)\s+(\w+)/g)].map((m) => m[1]).filter((t) => order.indexOf(ownerOf.get(t) ?? '') > order.indexOf(domainOf(f.name)));
    const found = new Set(files.filter((f) => isDataModule(f.name)).flatMap((f) => upward(f).map((t) => `${domainOf(f.name)} reads ${t}`)));
    const bullet = /^- \*\*Reads up the list\*\*([\s\S]*?)(?=\n- |\n\n)/m.exec(text)![1];
    const listed = [...bullet.matchAll(/`([a-z]+)` reads ((?:`\w+`(?:, | and )?)+)/g)].flatMap((m) =>
      [...m[2].matchAll(/`(\w+)`/g)].map((t) => `${m[1]} reads ${t[1]}`),
    );
    expect([...found].sort()).toEqual([...listed].sort());
    // The rule can see what it looks for.
    expect(upward({ name: 'identity/sql/x.ts', text: 'SELECT 1 FROM accounts a JOIN supplier_orders so ON true' })).toEqual(['supplier_orders']);
  });

  test('each queue is listed under the domain whose module declares it', () => {
    for (const m of DOMAIN_MODULES) {
      const row = rows.find((r) => r.domain === m.name);
      expect({ domain: m.name, queues: (m.queues ?? []).map((q) => q.name).sort() }).toEqual({ domain: m.name, queues: [...(row?.queues ?? [])].sort() });
    }
  });
});
