import crypto from 'node:crypto';
import { errors } from './errors';
import type { Secrets } from './crypto';

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
    const canonical = JSON.stringify(Object.keys(filters).sort().map((k) => [k, filters[k] ?? null]));
    return crypto.createHash('sha256').update(`${list}|${canonical}`).digest('base64url').slice(0, 16);
  }

  encode(list: string, filters: Record<string, unknown>, pos: CursorPosition): string {
    const payload = Buffer.from(JSON.stringify([pos.dir === 'next' ? 'n' : 'p', pos.createdAt, pos.id, this.bind(list, filters)])).toString('base64url');
    return `${payload}.${this.secrets.sign(payload).slice(0, 22)}`;
  }

  decode(list: string, filters: Record<string, unknown>, cursor: string): CursorPosition {
    const [payload, sig] = cursor.split('.');
    if (!payload || !sig) throw errors.invalidCursor();
    const expected = Buffer.from(this.secrets.sign(payload).slice(0, 22));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) throw errors.invalidCursor();
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
  column: string;
  value: unknown;
  /** The column in the counts table; omit when the counts table does not keep this filter. */
  countColumn?: string;
  op?: '=' | '<>';
}

/**
 * One statement for a page of a keyset-paged list (created_at desc, id desc): the page's rows with the
 * nested parts `columns` adds (aliased as the table), and `total_count` from the counts table the
 * database keeps, so a page costs one round trip. Answers a row with only total_count when the page is empty.
 */
export function keysetStatement(o: {
  table: string;
  alias: string;
  filters: ListFilter[];
  pos: CursorPosition | null;
  limit: number;
  /** The output columns over the page, e.g. `p.*, (SELECT json_agg(...) ...) AS variants`. */
  columns: string;
  /** Counts table and the column summed; null counts the rows (for filters the counts do not keep). */
  counts: { table: string; sum: string } | null;
}): { sql: string; args: unknown[] } {
  const a = o.alias;
  const args: unknown[] = [];
  const arg = (v: unknown) => `$${args.push(v)}`;
  const rowWhere = o.filters.map((f) => `${a}.${f.column} ${f.op ?? '='} ${arg(f.value)}`);
  const countWhere = o.counts ? o.filters.map((f, i) => `${f.countColumn} ${f.op ?? '='} $${i + 1}`) : rowWhere;
  const countSql = o.counts ? `SELECT coalesce(sum(${o.counts.sum}), 0)::bigint FROM ${o.counts.table} WHERE ${countWhere.join(' AND ')}` : `SELECT count(*) FROM ${o.table} ${a} WHERE ${rowWhere.join(' AND ')}`;
  const pageWhere = [...rowWhere];
  if (o.pos) pageWhere.push(`(${a}.created_at, ${a}.id) ${o.pos.dir === 'next' ? '<' : '>'} (${arg(o.pos.createdAt)}::timestamptz, ${arg(o.pos.id)}::uuid)`);
  const dir = o.pos?.dir === 'prev' ? 'ASC' : 'DESC';
  const sql = `WITH page AS (
      SELECT ${a}.*, ${a}.created_at::text AS cursor_at FROM ${o.table} ${a}
       WHERE ${pageWhere.join(' AND ')} ORDER BY ${a}.created_at ${dir}, ${a}.id ${dir} LIMIT ${Number(o.limit)}
    )
    SELECT t.total_count, r.* FROM (${countSql}) t(total_count)
      LEFT JOIN LATERAL (SELECT ${o.columns} FROM page ${a}) r ON true
     ORDER BY r.created_at ${dir}, r.id ${dir}`;
  return { sql, args };
}

/** Every filter must be kept by the counts table for the counts to answer; otherwise rows are counted. */
export function countsFor(filters: ListFilter[], counts: { table: string; sum: string }): { table: string; sum: string } | null {
  return filters.every((f) => f.countColumn) ? counts : null;
}

/**
 * Keyset paging on (created_at desc, id desc). `fetch` gets the position and a limit of pageSize+1
 * and answers rows in list order (newest first) for 'next', oldest first for 'prev', with the list's
 * exact totalCount. Rows carry `cursorAt`, the exact created_at as Postgres text (microseconds; a JS
 * Date would lose them).
 */
export async function keysetPage<Row extends { cursorAt: string; id: string }, Out>(opts: {
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
  const at = (r: Row, dir: 'next' | 'prev') => opts.cursors.encode(opts.list, opts.filters, { dir, createdAt: r.cursorAt, id: r.id });
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

/** Runs a keysetStatement: its rows (none when the page is empty) and the total count. */
export async function runKeyset<R extends { id: string | null }>(db: { query(sql: string, args: unknown[]): Promise<unknown> }, st: { sql: string; args: unknown[] }): Promise<{ rows: R[]; totalCount: number }> {
  const rows = (await db.query(st.sql, st.args)) as Array<R & { total_count: string }>;
  return { rows: rows.filter((r) => r.id !== null), totalCount: rows.length ? Number(rows[0].total_count) : 0 };
}
