/** Shared by the client tests: the built client, a fetch that records what went over the wire, and key checks. */
import util from 'node:util';
import { StoreClient, type StoreClientOptions } from '../../client/dist/cjs';
import { isKeyHandover, seen, Service } from '../support/harness';

export * from '../../client/dist/cjs';

export interface Sent {
  method: string;
  url: URL;
  headers: Headers;
  body?: unknown;
  status?: number;
  error?: string;
}

/**
 * The platform fetch, watched: every request and its status is kept, and every answer goes to the
 * harness's leak scan. Nothing is changed or faked on the way.
 */
export function watchedFetch(): { fetch: typeof fetch; sent: Sent[] } {
  const sent: Sent[] = [];
  const watched: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const entry: Sent = {
      method: init?.method ?? 'GET',
      url,
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    sent.push(entry);
    try {
      const res = await fetch(input, init);
      entry.status = res.status;
      const route = `${entry.method} ${url.pathname}`;
      if (!isKeyHandover(route)) seen.responses.push({ route, text: await res.clone().text() });
      return res;
    } catch (err) {
      entry.error = String(err);
      throw err;
    }
  };
  return { fetch: watched, sent };
}

export function clientFor(svc: Service | string, apiKey: string, opts: Partial<StoreClientOptions> = {}) {
  const w = watchedFetch();
  const store = new StoreClient({ apiKey, baseUrl: typeof svc === 'string' ? svc : svc.baseUrl, fetch: w.fetch, ...opts });
  return { store, sent: w.sent };
}

/** The rejection of `work`, failing the test if it resolved. */
export async function rejectionOf<E = any>(work: Promise<unknown>): Promise<E> {
  try {
    await work;
  } catch (err) {
    return err as E;
  }
  throw new Error('expected the call to throw');
}

/** Every way an error can be printed or logged; none may contain the key. */
export function expectNoKey(err: unknown, key: string): void {
  const e = err as Error;
  const views = [String(e), e.message, e.stack ?? '', util.inspect(e, { depth: 20, showHidden: true }), JSON.stringify(e) ?? ''];
  for (const v of views) expect(v.includes(key)).toBe(false);
}
