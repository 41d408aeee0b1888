/**
 * One internal name for the spec's order part (issue 55 item 6; the glossary in docs/architecture.md): `OrderPart`,
 * `partKey`, `partOf`/`partsOf`. The retired names may not come back in server/. The wire keeps `groupKey`, allowed
 * only where it meets the internal name: a line mapping it (naming `partKey` or the column `group_key` too), the
 * path parameter (`:groupKey`, `ctx.params.groupKey`), and the JSON Schemas the OpenAPI document is made from.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '../..');
const RETIRED = /\b(FulfilmentGroups?|groupOf|groupsOf|groupKeyOf|supplierGroupKey|STORE_GROUP|GROUP_COLUMNS|groupParams|storeGroup)\b/;
const SCHEMA_FILE = /(^|\/)(schemas|route-parts)\.ts$/;

function wireMapping(file: string, line: string): boolean {
  if (/\bpartKey\b|\bgroup_key\b/.test(line)) return true;
  if (/:groupKey\b|\bctx\.params\.groupKey\b/.test(line)) return true;
  return SCHEMA_FILE.test(file) && /\bgroupKey: \{ type: 'string'|'groupKey'/.test(line);
}

/** The lines of `text` that use a retired internal name, as `file:line: text`. */
export function retiredNames(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => {
    const bad = RETIRED.test(line) || (/\bgroupKey\b/.test(line) && !wireMapping(file, line));
    return bad ? [`${file}:${i + 1}: ${line.trim()}`] : [];
  });
}

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : walk(p);
    return /\.(ts|cjs|mjs|js)$/.test(e.name) ? [p] : [];
  });
}

test('server/ calls the order part by its one internal name', () => {
  const files = walk(path.join(ROOT, 'server'));
  expect(files.length).toBeGreaterThan(100);
  const found = files.flatMap((f) => retiredNames(path.relative(ROOT, f).split(path.sep).join('/'), fs.readFileSync(f, 'utf8')));
  expect(found).toEqual([]);
});

test('the rule finds a retired name planted in code and lets the wire mappings be', () => {
  const planted = [
    'const groupKey = `supplier:${id}`;',
    'export function groupsOf(db: Queryable) {}',
    'const g: FulfilmentGroup = part;',
    "type K = Pick<SupplierOrder, 'groupKey'>;",
  ].join('\n');
  expect(retiredNames('server/orders/service.ts', planted)).toHaveLength(4);
  const wire = [
    'groupKey: g.partKey,',
    "groupKey: g.group_key, // the event's wire name",
    'path: `${BASE}/:storeId/:orderId/groups/:groupKey/ship`,',
    'await orders.shipOwnPart(order, ctx.params.groupKey, "shipped");',
  ].join('\n');
  expect(retiredNames('server/orders/views.ts', wire)).toEqual([]);
  expect(retiredNames('server/orders/schemas.ts', "  ['groupKey', 'connectionId'],")).toEqual([]);
  expect(retiredNames('server/orders/views.ts', "  ['groupKey', 'connectionId'],")).toHaveLength(1);
});
