import { StoreSuppliersError } from './errors.js';
import { ApiKeys, StoreOrders } from './store.js';
import { Suppliers } from './suppliers/index.js';
import { Transport } from './transport.js';

export interface StoreClientOptions {
  /** The API key (header `X-API-Key`). Keep it on a server. */
  apiKey: string | undefined;
  /** Where the service runs, for example `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** Time-out of one attempt in milliseconds (default 60000). */
  timeoutMs?: number;
  /** Retries of calls that are safe to repeat, on network errors, time-outs, 429 and 503 (default 2). */
  maxRetries?: number;
  /** A fetch to use instead of the platform's. */
  fetch?: typeof fetch;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /**
   * Allows constructing the client in a browser. A key in a web page is readable by anyone who opens it
   * (spec: keys are kept on a server); set this only for a page that the key's owner alone uses.
   */
  dangerouslyAllowBrowser?: boolean;
}

const looksLikeBrowser = () =>
  typeof (globalThis as { window?: unknown }).window !== 'undefined' && typeof (globalThis as { document?: unknown }).document !== 'undefined';

/** The Store Suppliers client: `store.suppliers.*`, `store.orders.*` and `store.apiKey.current()`. */
export class StoreClient {
  readonly suppliers: Suppliers;
  readonly orders: StoreOrders;
  readonly apiKey: ApiKeys;

  constructor(options: StoreClientOptions) {
    if (looksLikeBrowser() && !options.dangerouslyAllowBrowser) {
      throw new StoreSuppliersError(
        'StoreClient refuses to run in a browser: an API key in a web page can be read by anyone who opens it. Call the service from your server, or pass dangerouslyAllowBrowser: true if you understand the risk.',
      );
    }
    if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') throw new StoreSuppliersError('apiKey is required (a Store Suppliers API key).');
    if (typeof options.baseUrl !== 'string' || !/^https?:\/\//.test(options.baseUrl))
      throw new StoreSuppliersError('baseUrl is required, for example http://127.0.0.1:3000.');
    const platformFetch = options.fetch ?? globalThis.fetch;
    if (typeof platformFetch !== 'function') throw new StoreSuppliersError('No fetch: use Node.js 20 or later, or pass the fetch option.');
    const transport = new Transport({
      apiKey: options.apiKey,
      baseUrl: options.baseUrl,
      timeoutMs: options.timeoutMs ?? 60_000,
      maxRetries: options.maxRetries ?? 2,
      fetch: platformFetch.bind(globalThis),
      headers: options.headers ?? {},
    });
    this.suppliers = new Suppliers(transport);
    this.orders = new StoreOrders(transport);
    this.apiKey = new ApiKeys(transport);
  }
}
