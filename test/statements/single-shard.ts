import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

/** The tables Citus distributes by store (server/migrations/citus-distribute.sql): every statement on one names its store. */
export function storeTables(): string[] {
  const sql = fs.readFileSync(path.join(root, 'server/migrations/citus-distribute.sql'), 'utf8');
  return [...sql.matchAll(/create_distributed_table\('(\w+)', '(?:store_id|id)'/g)].map((m) => m[1]);
}

/** The allowed cross-store statements: docs/scaling.md's list, each "- `name`: why". */
export function allowedCrossStore(): Map<string, string> {
  const doc = fs.readFileSync(path.join(root, 'docs/scaling.md'), 'utf8');
  const start = doc.indexOf('## Allowed cross-store statements');
  if (start < 0) return new Map();
  const section = doc.slice(start).split(/\n## /)[0];
  return new Map([...section.matchAll(/^- `([^`]+)`: (.+)$/gm)].map((m) => [m[1], m[2]]));
}

const KEYWORDS = new Set(['where', 'set', 'on', 'join', 'left', 'right', 'inner', 'full', 'cross', 'using', 'values', 'select', 'group', 'order', 'limit', 'returning', 'for', 'as', 'default', 'natural', 'union', 'except', 'intersect', 'window', 'having', 'offset', 'lateral', 'overriding']);

export interface Verdict {
  query: string;
  /** The store tables the statement names without a store_id equality, with their alias. */
  unscoped: string[];
  /** The cross-store name it carries, if any. */
  crossStore?: string;
}

/**
 * Each store table a statement names (FROM, JOIN, UPDATE, INSERT INTO, DELETE FROM) must be pinned to one store: its
 * `store_id` equal to a parameter or to another pinned table's `store_id` (a join within one store), or, for an
 * insert, `store_id` among the columns written. Unqualified `store_id = $n` pins a table named without an alias.
 */
export function judge(query: string, tables: readonly string[]): Verdict {
  const cross = /\/\*\s*cross-store:\s*([^*]+?)\s*\*\//.exec(query)?.[1];
  const text = query.replace(/--[^\n]*/g, ' ').replace(/\/\*[\s\S]*?\*\//g, ' ');
  const store = new Set(tables);
  const unscoped: string[] = [];
  const refs = [...text.matchAll(/\b(FROM|JOIN|UPDATE|INTO)\s+(?:ONLY\s+)?"?(\w+)"?(?:\s+(?:AS\s+)?(\w+))?/gi)];
  for (const m of refs) {
    const [, verb, table, maybeAlias] = m;
    if (!store.has(table)) continue;
    const alias = maybeAlias && !KEYWORDS.has(maybeAlias.toLowerCase()) ? maybeAlias : table;
    if (verb.toUpperCase() === 'INTO') {
      const after = text.slice((m.index ?? 0) + m[0].indexOf(table) + table.length).replace(/^"/, '');
      const columns = /^\s*(?:AS\s+\w+\s*)?\(([^)]*)\)/i.exec(after);
      if (!columns || !new RegExp(`\\b${table === 'stores' ? 'id' : 'store_id'}\\b`).test(columns[1])) unscoped.push(`${table} (insert without store_id)`);
      continue;
    }
    const a = alias.replace(/\W/g, '');
    const key = table === 'stores' ? 'id' : 'store_id';
    const other = table === 'stores' ? '\\w+\\.store_id' : '\\w+\\.(?:store_id|id)';
    const pinned =
      new RegExp(`\\b${a}\\.${key}\\s*=\\s*(\\$\\d+|${other}\\b)`).test(text) ||
      new RegExp(`(\\$\\d+(::\\w+)?|${other})\\s*=\\s*${a}\\.${key}\\b`).test(text) ||
      (alias === table && new RegExp(`(^|[^.\\w])${key}\\s*=\\s*\\$\\d+`).test(text));
    if (!pinned) unscoped.push(alias === table ? table : `${table} ${alias}`);
  }
  return { query, unscoped, crossStore: cross };
}
