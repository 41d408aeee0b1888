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

/**
 * Keyset paging on (created_at desc, id desc). `fetch` gets the position and a limit of pageSize+1
 * and answers rows in list order (newest first) for 'next', oldest first for 'prev'. Rows carry
 * `cursorAt`, the exact created_at as Postgres text (microseconds; a JS Date would lose them).
 */
export async function keysetPage<Row extends { cursorAt: string; id: string }, Out>(opts: {
  cursors: Cursors;
  list: string;
  filters: Record<string, unknown>;
  cursor?: string;
  pageSize: number;
  fetch(pos: CursorPosition | null, limit: number): Promise<Row[]>;
  count(): Promise<number>;
  map(row: Row): Out;
}): Promise<Page<Out>> {
  const pos = opts.cursor ? opts.cursors.decode(opts.list, opts.filters, opts.cursor) : null;
  const [rows, totalCount] = await Promise.all([opts.fetch(pos, opts.pageSize + 1), opts.count()]);
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
