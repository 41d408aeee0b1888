import type { RequestOptions } from './types.js';

interface Page<T> {
  items: T[];
  pagination: { nextCursor: string | null; hasMore: boolean };
}

/**
 * Every item of a cursor-paged list: the same filters each time, the previous `nextCursor` as `cursor`,
 * until `hasMore` is false. The signal of `options` also stops the walk between pages.
 */
export async function* walkPages<T, Q extends Record<string, unknown>>(
  fetchPage: (query: Q & { cursor?: string }, options?: RequestOptions) => Promise<Page<T>>,
  filters: Q,
  options?: RequestOptions,
): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    options?.signal?.throwIfAborted();
    const page = await fetchPage(cursor === undefined ? { ...filters } : { ...filters, cursor }, options);
    yield* page.items;
    if (!page.pagination.hasMore || !page.pagination.nextCursor) return;
    cursor = page.pagination.nextCursor;
  }
}
