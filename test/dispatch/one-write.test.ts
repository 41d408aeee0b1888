/**
 * Where a supplier order's status is written, and who owns the order part, checked on the source itself: one SQL
 * write of a supplier order's status (dispatch's `writeChange`), one of an order part's (orders' `partMove`, reached
 * only through the orders service `PartMoves`), no TypeORM repository or query builder in either domain, dispatch
 * importing nothing but types from orders, orders importing nothing of dispatch, and no dispatch file a newcomer
 * cannot read at one sitting.
 */
import fs from 'node:fs';
import path from 'node:path';

const SERVER = path.join(__dirname, '../../server');
const read = (rel: string) => fs.readFileSync(path.join(SERVER, rel), 'utf8');
function sources(dir = SERVER): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : p.endsWith('.ts') ? [path.relative(SERVER, p).split(path.sep).join('/')] : [];
  });
}
const files = sources().filter((f) => !f.startsWith('migrations/'));
const domain = (d: string) => files.filter((f) => f.startsWith(`${d}/`));

/** The text of one exported function, from its declaration to the next top-level declaration. */
function body(rel: string, name: string): string {
  const text = read(rel);
  const start = text.indexOf(`export async function ${name}(`) >= 0 ? text.indexOf(`export async function ${name}(`) : text.indexOf(`export function ${name}(`);
  expect(start).toBeGreaterThanOrEqual(0);
  const next = text.slice(start + 1).search(/\n(export |function |const |interface |\/\/ ---)/);
  return text.slice(start, next < 0 ? undefined : start + 1 + next);
}

test("a supplier order's status is written in one place: writeChange, which checks the move against the table", () => {
  const writes = files.flatMap((f) =>
    [...read(f).matchAll(/(INSERT INTO supplier_orders\b|UPDATE supplier_orders SET[^`]*?\bstatus\s*=)/g)].map((m) => `${f}: ${m[1].slice(0, 40)}`),
  );
  expect(writes).toEqual(['dispatch/sql/write.ts: INSERT INTO supplier_orders', 'dispatch/sql/write.ts: UPDATE supplier_orders SET status =']);
  const write = body('dispatch/sql/write.ts', 'writeChange');
  expect(write).toContain('INSERT INTO supplier_orders');
  expect(write).toContain('UPDATE supplier_orders SET status');
  expect(write).toMatch(/assertMove\(c\.from, c\.to\)/);
  // Nothing else in the service calls it but the records' change, create and reroute (all through transition).
  const callers = files.filter((f) => /\bwriteChange\(/.test(read(f)) && f !== 'dispatch/sql/write.ts');
  expect(callers).toEqual(['dispatch/records.ts']);
  // As one line, whatever the formatter's breaks: whitespace runs as one space, none inside brackets, no trailing comma.
  const records = read('dispatch/records.ts')
    .replace(/\s+/g, ' ')
    .replace(/([([{]) /g, '$1')
    .replace(/,? ([)\]])/g, '$1')
    .replace(/,? }/g, ' }')
    .replace(/\{(\S)/g, '{ $1');
  // One call, in the records' `write`, which hands it orders' part moves; every change goes through `write`.
  expect(records.match(/writeChange\(/g)).toHaveLength(1);
  expect(records).toContain('return writeChange(db, c, this.parts, alike);');
  // Seven: change, changeWithConnection, create (twice), reroute (twice), and a reship's create in its claim's transaction (createIn).
  expect(records.match(/this\.write\(/g)).toHaveLength(7);
  expect(records).toContain("this.write(tx, transition(null, { type: 'create', record, actor, trigger }))");
  // Routing's choice rides on a change's own write (server/dispatch/carry.ts adds its entry to the transition's change).
  expect(records).toContain('this.write(tx, carrying(transition(so, r.rerouted), r.chosenNow ? r.routing : null))');
  expect(records).toContain("const made = transition(null, { type: 'create', record: r.record,");
  expect(records).toContain('this.write(tx, carrying(transition(so, e), routed))');
  expect(records).toContain('this.write(this.db, change, alike)');
  expect(records).toContain('const change = transition(so, e);');
  expect(records).toContain("const change = transition(null, { type: 'create', record, actor, trigger });");
});

test("an order part's status is written only by orders' partMove; dispatch never writes fulfilment_groups", () => {
  const writes = files.flatMap((f) =>
    [...read(f).matchAll(/(UPDATE fulfilment_groups|INSERT INTO fulfilment_groups|DELETE FROM fulfilment_groups)/g)].map(() => f),
  );
  // The new order's parts are inserted with it (orders/sql/orders.ts); every later write is partMove's.
  expect([...new Set(writes)].sort()).toEqual(['orders/sql/orders.ts', 'orders/sql/parts.ts']);
  expect(read('orders/sql/orders.ts')).not.toMatch(/UPDATE fulfilment_groups/);
  const text = read('orders/sql/parts.ts');
  const updates = [...text.matchAll(/UPDATE fulfilment_groups/g)].length;
  expect([...body('orders/sql/parts.ts', 'partMove').matchAll(/UPDATE fulfilment_groups/g)].length).toBe(updates);
  // The store order follows its parts in the same statement (no trigger), in partMove too.
  expect(body('orders/sql/parts.ts', 'partMove')).toMatch(/name: 'order_follow'[\s\S]*?UPDATE store_orders/);
});

test('dispatch and orders read and write through their own sql.ts: no repository, query builder or entity manager calls', () => {
  for (const f of [...domain('dispatch'), ...domain('orders')])
    expect({ f, calls: read(f).match(/getRepository|createQueryBuilder|\.manager\.|findOneBy|findBy\(|\.save\(/g) ?? [] }).toEqual({ f, calls: [] });
});

test('dispatch imports only types from orders (its part moves come from the orders service it is built with); orders imports nothing of dispatch', () => {
  const fromOrders = domain('dispatch').flatMap((f) =>
    [...read(f).matchAll(/^import (type )?\{([^}]*)\} from '(?:\.\.\/)+orders(\/[\w/-]+)?';/gm)].map((m) => ({
      f,
      type: !!m[1],
      names: m[2].trim(),
      module: m[3] ?? 'index',
    })),
  );
  expect(fromOrders.length).toBeGreaterThan(0);
  expect(fromOrders.filter((i) => !i.type || i.module !== 'index')).toEqual([]);
  // No domain's index re-exports a data function that runs statements (one taking a database handle): another domain
  // reaches those only through the domain's services. Pure builders (a row's reading, an outbox piece's text) may pass.
  for (const d of ['identity', 'operator', 'stores', 'events', 'connections', 'notifications', 'catalogue', 'orders', 'payments', 'dispatch']) {
    const runners = [...read(`${d}/index.ts`).matchAll(/^export \{([^}]*)\} from '\.\/(sql[/\w-]*)';/gm)].flatMap((m) => {
      const source = read(`${d}/${m[2]}.ts`);
      return m[1]
        .split(',')
        .map((n) => n.trim())
        .filter((n) => !n.startsWith('type '))
        .filter((n) => {
          const decl = new RegExp(`export (?:async )?function ${n}\\(([^)]*)\\)`).exec(source);
          return decl !== null && /Queryable|DataSource|EntityManager/.test(decl[1]);
        });
    });
    expect({ d, runners }).toEqual({ d, runners: [] });
  }
  expect(domain('orders').filter((f) => /from '\.\.\/dispatch\//.test(read(f)))).toEqual([]);
});

test('no dispatch file over 250 lines; the move table is one file, one row per move', () => {
  for (const f of domain('dispatch')) expect({ f, lines: read(f).split('\n').length <= 252 }).toEqual({ f, lines: true });
  const table = read('dispatch/state-machine.ts');
  expect(table).toContain('export const MOVE_TABLE');
  expect(files.filter((f) => /\browc?\(\[/.test(read(f)) && f !== 'dispatch/state-machine.ts')).toEqual([]);
});
