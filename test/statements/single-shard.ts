import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

/**
 * The tables Citus distributes (server/migrations/citus-distribute.sql) and by which column: every statement on one
 * names its shard (the store; the account, for the credit ledger).
 */
export function storeTables(): Map<string, string> {
  const sql = fs.readFileSync(path.join(root, 'server/migrations/citus-distribute.sql'), 'utf8');
  return new Map([...sql.matchAll(/create_distributed_table\('(\w+)', '(\w+)'/g)].map((m) => [m[1], m[2]]));
}

/** The allowed cross-store statements: docs/scaling.md's list, each "- `name`: why". */
export function allowedCrossStore(): Map<string, string> {
  const doc = fs.readFileSync(path.join(root, 'docs/scaling.md'), 'utf8');
  const start = doc.indexOf('## Allowed cross-store statements');
  if (start < 0) return new Map();
  const section = doc.slice(start).split(/\n## /)[0];
  return new Map([...section.matchAll(/^- `([^`]+)`: (.+)$/gm)].map((m) => [m[1], m[2]]));
}

const KEYWORDS = new Set([
  'where',
  'set',
  'on',
  'join',
  'left',
  'right',
  'inner',
  'full',
  'cross',
  'using',
  'values',
  'select',
  'group',
  'order',
  'limit',
  'returning',
  'for',
  'as',
  'default',
  'natural',
  'union',
  'except',
  'intersect',
  'window',
  'having',
  'offset',
  'lateral',
  'overriding',
]);

export interface Verdict {
  query: string;
  /** The store tables the statement names without a store_id equality, with their alias. */
  unscoped: string[];
  /** The cross-store name it carries, if any. */
  crossStore?: string;
}

/**
 * Each store table a statement names (FROM, JOIN, UPDATE, INSERT INTO, DELETE FROM) must be pinned to one store: its
 * `store_id` equal to a parameter, or joined on `store_id` to a table that is (followed to a fixed point, so two
 * tables joined only to each other pin nothing), or, for an insert, `store_id` among the columns written. Unqualified
 * `store_id = $n` pins a table named without an alias. A name that is not a distributed table (a CTE, a function's
 * rows) passes on a store only when the statement pins one somewhere.
 */
export function judge(query: string, tables: ReadonlyMap<string, string>): Verdict {
  const cross = /\/\*\s*cross-store:\s*([^*]+?)\s*\*\//.exec(query)?.[1];
  const text = query.replace(/--[^\n]*/g, ' ').replace(/\/\*[\s\S]*?\*\//g, ' ');
  const unscoped: string[] = [];
  const named = new Map<string, { table: string; key: string }>();
  for (const m of text.matchAll(/\b(FROM|JOIN|UPDATE|INTO)\s+(?:ONLY\s+)?"?(\w+)"?(?:\s+(?:AS\s+)?(\w+))?/gi)) {
    const [, verb, table, maybeAlias] = m;
    const key = tables.get(table);
    if (!key) continue;
    const alias = maybeAlias && !KEYWORDS.has(maybeAlias.toLowerCase()) ? maybeAlias : table;
    if (verb.toUpperCase() === 'INTO') {
      const after = text.slice((m.index ?? 0) + m[0].indexOf(table) + table.length).replace(/^"/, '');
      const columns = /^\s*(?:AS\s+\w+\s*)?\(([^)]*)\)/i.exec(after);
      if (!columns || !new RegExp(`\\b${key}\\b`).test(columns[1])) unscoped.push(`${table} (insert without ${key})`);
      continue;
    }
    named.set(alias, { table, key });
  }
  const pinned = new Set<string>();
  for (const [alias, { table, key }] of named) {
    const byParam = new RegExp(`\\b${alias}\\.${key}\\s*=\\s*\\$\\d+|\\$\\d+(::\\w+)?\\s*=\\s*${alias}\\.${key}\\b`).test(text);
    const bare = alias === table && new RegExp(`(^|[^.\\w])${key}\\s*=\\s*\\$\\d+`).test(text);
    if (byParam || bare) pinned.add(alias);
  }
  // Joins on the distribution column: `a.store_id = b.store_id` (or a store's own `id`), either way round.
  const joins = [...text.matchAll(/\b(\w+)\.(store_id|id|account_id)\s*=\s*(\w+)\.(store_id|id|account_id)\b/g)]
    .filter(([, a, ca, b, cb]) => ca === (named.get(a)?.key ?? 'store_id') && cb === (named.get(b)?.key ?? 'store_id'))
    .map(([, a, , b]) => [a, b] as const);
  // A CTE or function's rows carrying store_id: as pinned as the statement's own seeds.
  const seeded = pinned.size > 0;
  for (let grew = true; grew;) {
    grew = false;
    for (const [a, b] of joins) {
      const aOk = pinned.has(a) || (seeded && !named.has(a));
      const bOk = pinned.has(b) || (seeded && !named.has(b));
      if (aOk && !pinned.has(b) && named.has(b)) (pinned.add(b), (grew = true));
      if (bOk && !pinned.has(a) && named.has(a)) (pinned.add(a), (grew = true));
    }
  }
  for (const [alias, { table }] of named) if (!pinned.has(alias)) unscoped.push(alias === table ? table : `${table} ${alias}`);
  return { query, unscoped, crossStore: cross };
}
