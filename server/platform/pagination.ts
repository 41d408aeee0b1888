import crypto from 'node:crypto';
import { errors } from './errors';
import type { Secrets } from './crypto';
import { preparedRows, Queryable, rows } from './db';

/** The spec's page envelope, used by every cursor-paged list. */
export interface Page<T> {
  items: T[];
  pagination: { nextCursor: string | null; previousCursor: string | null; hasMore: boolean; totalCount: number; pageSize: number };
}

export interface CursorPosition {
  dir: 'next' | 'prev';
  createdAt: string;
  id: string;
}

/** Cursors are opaque, signed, and bound to the list and the filters they were made with. */
export class Cursors {
  constructor(private readonly secrets: Secrets) {}

  private bind(list: string, filters: Record<string, unknown>): string {
    const canonical = JSON.stringify(
      Object.keys(filters)
        .sort()
        .map((k) => [k, filters[k] ?? null]),
    );
    return crypto.hash('sha256', `${list}|${canonical}`, 'base64url').slice(0, 16);
  }

  encode(list: string, filters: Record<string, unknown>, pos: CursorPosition): string {
    const payload = Buffer.from(JSON.stringify([pos.dir === 'next' ? 'n' : 'p', pos.createdAt, pos.id, this.bind(list, filters)])).toString('base64url');
    return `${payload}.${this.secrets.sign(payload).slice(0, 22)}`;
  }

  decode(list: string, filters: Record<string, unknown>, cursor: string): CursorPosition {
    const [payload, sig] = cursor.split('.');
    if (!payload || !sig) throw errors.invalidCursor();
    if (!this.secrets.verifySignature(payload, sig, 22)) throw errors.invalidCursor();
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw errors.invalidCursor();
    }
    if (!Array.isArray(parsed) || parsed.length !== 4) throw errors.invalidCursor();
    const [dir, createdAt, id, binding] = parsed as string[];
    if (binding !== this.bind(list, filters)) throw errors.invalidCursor();
    return { dir: dir === 'p' ? 'prev' : 'next', createdAt, id };
  }
}

/** One filter of a list: a column of the listed table, and of its counts table when it has one there. */
export interface ListFilter {
  /** A column of the listed table, or an expression over its row (`destination->>'name'`). */
  column: string;
  value: unknown;
  /** The column in the counts table; omit when the counts table does not keep this filter. */
  countColumn?: string;
  /** `contains`: the text value, letter case aside and taken literally (no wildcards), is in `column` or in any of `orColumns`. */
  op?: '=' | '<>' | 'contains';
  orColumns?: string[];
}

/** A filter's condition on the row aliased `a`, its value given to `arg`. */
function rowCondition(a: string, f: ListFilter, arg: (v: unknown) => string): string {
  if (f.op !== 'contains') return `${a}.${f.column} ${f.op ?? '='} ${arg(f.value)}`;
  const pattern = arg(`%${String(f.value).replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  return `(${[f.column, ...(f.orColumns ?? [])].map((c) => `(${a}.${c}) ILIKE ${pattern}`).join(' OR ')})`;
}

/**
 * The filters every store list starts with: its store, and for an `own` key the records that key made
 * (`keyCounted`: the list's counts table keeps the creating key as `key_id`).
 */
export function storeScope(storeId: string, ownKeyId: string | null, keyCounted = true): ListFilter[] {
  const filters: ListFilter[] = [{ column: 'store_id', countColumn: 'store_id', value: storeId }];
  if (ownKeyId) filters.push({ column: 'created_by_key_id', ...(keyCounted ? { countColumn: 'key_id' } : {}), value: ownKeyId });
  return filters;
}

/**
 * A timestamptz column as the answer shows it (`Date#toISOString`: UTC, milliseconds cut, not rounded, as pg's
 * parser does), made by Postgres: a list then parses no Date per row only to print it again.
 */
export const isoTime = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A keyset-paged list's statement, as its domain's SQL module declares it. */
export interface KeysetListStatement {
  /** The list's name and the filters as the caller gave them (absent ones count as null): a cursor is valid only for the same. */
  list: string;
  binding: Record<string, unknown>;
  table: string;
  alias: string;
  filters: ListFilter[];
  /** The output columns over the page, e.g. `p.*, (SELECT json_agg(...) ...) AS variants`. */
  columns: string;
  /** Counts table and the column summed, used when it keeps every filter; otherwise (and when null) rows are counted. */
  counts: { table: string; sum: string } | null;
}

/**
 * One statement for a page of a keyset-paged list (created_at desc, id desc): the page's keys, joined back to
 * the table for the output `columns` (with their nested parts) and `total_count` from the counts table the
 * database keeps, so a page costs one round trip. Answers a row with only total_count when the page is empty.
 * The statement itself names no `*`, so a list whose columns are named can be prepared.
 */
function keysetStatement(o: KeysetListStatement & { pos: CursorPosition | null; limit: number }): { sql: string; args: unknown[] } {
  const a = o.alias;
  const args: unknown[] = [];
  const arg = (v: unknown) => `$${args.push(v)}`;
  const rowWhere = o.filters.map((f) => rowCondition(a, f, arg));
  // A store's list joins its page back on the store too, so the whole statement stays on the store's shard.
  const store = o.filters.findIndex((f) => f.column === 'store_id' && (f.op ?? '=') === '=');
  const joinBack = `${store >= 0 ? `${a}.store_id = $${store + 1} AND ` : ''}${a}.id = page.id`;
  const counts = o.counts && o.filters.every((f) => f.countColumn) ? o.counts : null;
  const countWhere = counts ? o.filters.map((f, i) => `${f.countColumn} ${f.op ?? '='} $${i + 1}`) : rowWhere;
  const countSql = counts
    ? `SELECT coalesce(sum(${counts.sum}), 0)::bigint FROM ${counts.table} WHERE ${countWhere.join(' AND ')}`
    : `SELECT count(*) FROM ${o.table} ${a} WHERE ${rowWhere.join(' AND ')}`;
  const pageWhere = [...rowWhere];
  if (o.pos) pageWhere.push(`(${a}.created_at, ${a}.id) ${o.pos.dir === 'next' ? '<' : '>'} (${arg(o.pos.createdAt)}::timestamptz, ${arg(o.pos.id)}::uuid)`);
  const dir = o.pos?.dir === 'prev' ? 'ASC' : 'DESC';
  const sql = `WITH page AS (
      SELECT ${a}.id, ${a}.created_at::text AS cursor_at FROM ${o.table} ${a}
       WHERE ${pageWhere.join(' AND ')} ORDER BY ${a}.created_at ${dir}, ${a}.id ${dir} LIMIT ${Number(o.limit)}
    )
    SELECT t.total_count, page.cursor_at, ${o.columns}
      FROM (${countSql}) t(total_count)
      LEFT JOIN (page JOIN ${o.table} ${a} ON ${joinBack}) ON true
     ORDER BY ${a}.created_at ${dir}, ${a}.id ${dir}`;
  return { sql, args };
}

/**
 * Keyset paging on (created_at desc, id desc). `fetch` gets the position and a limit of pageSize+1
 * and answers rows in list order (newest first) for 'next', oldest first for 'prev', with the list's
 * exact totalCount. Rows carry `cursor_at`, the exact created_at as Postgres text (microseconds; a JS
 * Date would lose them).
 */
export async function keysetPage<Row extends { cursor_at: string; id: string }, Out>(opts: {
  cursors: Cursors;
  list: string;
  filters: Record<string, unknown>;
  cursor?: string;
  pageSize: number;
  fetch(pos: CursorPosition | null, limit: number): Promise<{ rows: Row[]; totalCount: number }>;
  map(row: Row): Out;
}): Promise<Page<Out>> {
  const pos = opts.cursor ? opts.cursors.decode(opts.list, opts.filters, opts.cursor) : null;
  const { rows, totalCount } = await opts.fetch(pos, opts.pageSize + 1);
  const extra = rows.length > opts.pageSize;
  let page = rows.slice(0, opts.pageSize);
  if (pos?.dir === 'prev') page = page.reverse();
  const at = (r: Row, dir: 'next' | 'prev') => opts.cursors.encode(opts.list, opts.filters, { dir, createdAt: r.cursor_at, id: r.id });
  const first = page[0];
  const last = page[page.length - 1];
  // Going forward: more rows exist after this page if we fetched one extra; rows before exist if we came by a cursor.
  const hasNext = pos?.dir === 'prev' ? true : extra;
  const hasPrev = pos ? (pos.dir === 'prev' ? extra : true) : false;
  return {
    items: page.map(opts.map),
    pagination: {
      nextCursor: hasNext && last ? at(last, 'next') : null,
      previousCursor: hasPrev && first ? at(first, 'prev') : null,
      hasMore: hasNext && !!last,
      totalCount,
      pageSize: opts.pageSize,
    },
  };
}

/**
 * A page of a keyset-paged list in one statement: the cursor decoded (bound to the list and its filters),
 * the domain's statement run for the page, the rows mapped, the cursors made.
 */
export async function keysetList<Row extends { id: string }, Out>(
  db: Queryable,
  cursors: Cursors,
  q: { cursor?: string; pageSize: number },
  statement: KeysetListStatement,
  map: (row: Row) => Out,
): Promise<Page<Out>> {
  return keysetPage<Row & { cursor_at: string }, Out>({
    cursors,
    list: statement.list,
    filters: statement.binding,
    cursor: q.cursor,
    pageSize: q.pageSize,
    fetch: async (pos, limit) => {
      const st = keysetStatement({ ...statement, pos, limit });
      // A list whose columns are all named keeps its result's shape when a migration adds a column: prepared.
      const run = statement.columns.includes('.*') ? rows : preparedRows;
      const found = await run<Row & { cursor_at: string; total_count: string }>(db, st.sql, st.args);
      return {
        // The rows as pg made them: adding a field to each would change every row's shape.
        rows: found.filter((r) => r.id !== null),
        totalCount: found.length ? Number(found[0].total_count) : 0,
      };
    },
    map,
  });
}
