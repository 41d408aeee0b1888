import type {
  IDataObject,
  IExecuteFunctions,
  IHttpRequestMethods,
  IHttpRequestOptions,
  ILoadOptionsFunctions,
  INode,
  IHookFunctions,
  IPollFunctions,
  JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/** Every context that talks to the service: the node, the trigger and the list loaders. */
export type StoreSuppliersContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions | IHookFunctions;

export const CREDENTIAL_NAME = 'storeSuppliersApi';

/** Largest page the service serves (spec: Limits). */
export const MAX_PAGE_SIZE = 100;

/**
 * One route of the service, as its OpenAPI document names it. Each operation file exports the route it
 * calls, and its execute goes through `callRoute`, so the route named is the route called.
 */
export interface Route {
  operationId: string;
  method: IHttpRequestMethods;
  /** OpenAPI-style path, e.g. /api/store-suppliers/{storeId}/orders/{supplierOrderId}/retry */
  path: string;
  /** A create or money action: it is sent with an Idempotency-Key (see `idempotencyKeyOf`). */
  idempotent?: true;
}

export interface RequestOptions {
  qs?: IDataObject;
  body?: IDataObject;
  itemIndex?: number;
  headers?: Record<string, string>;
}

/** The page envelope of cursor-paged lists: `{ items, pagination: { nextCursor, hasMore, ... } }`. */
interface Page {
  items: IDataObject[];
  pagination?: { nextCursor?: string | null; hasMore?: boolean };
}

const STATUS_TEXT: Record<number, string> = {
  400: 'The request was not valid',
  401: 'The API key was not accepted',
  402: 'Not enough credits',
  403: 'Not allowed',
  404: 'Not found',
  409: 'The record is not in a state that allows this',
  413: 'The request is too large',
  422: 'The supplier refused',
  503: 'The supplier or service is unavailable',
};

const CODE_HINTS: Record<string, string> = {
  unauthenticated: 'Check the API key in the Store Suppliers API credential: it may be wrong or revoked.',
  planRequired: "The store owner's plan must include dropshipping (Pro or higher) for this operation.",
  permissionDenied: 'The owner of the API key needs this store permission (ask the store owner).',
  insufficientCredits: 'The account that owns the API key has too few credits for this operation.',
  notFound: "Check the IDs: records of other stores, and records outside the key's record scope, are not found either.",
  invalidCursor: 'A cursor works only with the filters it was made with.',
  invalidState: 'Read the record again to see its current status.',
};

function queryOf(qs: IDataObject | undefined): IDataObject | undefined {
  if (!qs) return undefined;
  const out: IDataObject = {};
  for (const [key, value] of Object.entries(qs)) {
    if (value !== undefined && value !== null && value !== '') out[key] = value;
  }
  return out;
}

/** Turns the service's `{ error: { code, message, details } }` answer into a readable NodeApiError. */
export function toApiError(node: INode, statusCode: number, body: unknown, itemIndex?: number): NodeApiError {
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  const code = typeof error?.code === 'string' ? error.code : `http${statusCode}`;
  const message = typeof error?.message === 'string' ? error.message : (STATUS_TEXT[statusCode] ?? `The service answered ${statusCode}`);
  const details = Array.isArray(error?.details) ? (error.details as IDataObject[]) : [];
  const lines = details.map((d) => {
    const field = typeof d.field === 'string' ? d.field : undefined;
    const text = typeof d.message === 'string' ? d.message : JSON.stringify(d);
    return field ? `${field}: ${text}` : text;
  });
  const hint = CODE_HINTS[code];
  const description = [...lines, ...(hint ? [hint] : []), `HTTP ${statusCode}, error code ${code}.`].join('\n');
  return new NodeApiError(node, { code, message, httpCode: String(statusCode), ...(details.length ? { details } : {}) } as JsonObject, {
    message: `${message} [${code}]`,
    description,
    httpCode: String(statusCode),
    itemIndex,
  });
}

/**
 * Whether a 404 came from one of the service's own routes: another server's page, or the service's
 * answer for a route it does not have (a Base URL ending in /api doubles the prefix), is not.
 */
function isServiceAnswer(body: unknown): boolean {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return typeof error?.code === 'string' && error.message !== 'The route was not found.';
}

async function baseUrlOf(this: StoreSuppliersContext): Promise<string> {
  const credentials = await this.getCredentials(CREDENTIAL_NAME);
  return String(credentials.baseUrl ?? '').replace(/\/+$/, '');
}

/** The one request helper: sends the call with the credential's key and answers the `result` of the reply. */
export async function apiRequest(
  this: StoreSuppliersContext,
  method: IHttpRequestMethods,
  path: string,
  { qs, body, itemIndex, headers }: RequestOptions = {},
): Promise<unknown> {
  const baseUrl = await baseUrlOf.call(this);
  const options: IHttpRequestOptions = {
    method,
    url: `${baseUrl}${path}`,
    qs: queryOf(qs),
    ...(headers ? { headers } : {}),
    json: true,
    returnFullResponse: true,
    ignoreHttpStatusErrors: true,
  };
  if (body !== undefined) options.body = body;
  let response: { statusCode: number; body: unknown };
  try {
    response = await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_NAME, options);
  } catch (error) {
    // A plain object, not the caught error: n8n would keep an error of its own as it is, or swap the
    // message for its generic "refused the connection" text, and the Base URL would go unnamed.
    const reason = (error as Error).message;
    throw new NodeApiError(this.getNode(), { message: reason } as JsonObject, {
      message: `Could not reach Store Suppliers at ${baseUrl}`,
      description: `${reason}. Check the Base URL of the Store Suppliers API credential: the address of the service itself, without /api.`,
      itemIndex,
    });
  }
  if (response.statusCode === 404 && !isServiceAnswer(response.body)) {
    throw new NodeApiError(this.getNode(), { message: 'No Store Suppliers route answered' } as JsonObject, {
      message: `No Store Suppliers API answers at ${baseUrl}`,
      description: /\/api$/i.test(baseUrl)
        ? 'The Base URL of the Store Suppliers API credential ends in /api: use the address of the service itself, without /api.'
        : 'Check the Base URL of the Store Suppliers API credential: the address of the service itself, without /api.',
      httpCode: '404',
      itemIndex,
    });
  }
  if (response.statusCode >= 400) throw toApiError(this.getNode(), response.statusCode, response.body, itemIndex);
  if (response.statusCode === 204 || response.body === undefined || response.body === '') return undefined;
  const reply = response.body as { result?: unknown };
  return typeof reply === 'object' && reply !== null && 'result' in reply ? reply.result : reply;
}

/** Fills `{name}` segments of a route's path; every value is encoded (part keys carry a colon). */
export function routePath(route: Route, params: Record<string, string>): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new Error(`Missing path parameter ${name} for ${route.operationId}`);
    return encodeURIComponent(value);
  });
}

/**
 * The Idempotency-Key of one item's create in one run of this node: the same when n8n runs the node again for
 * Retry On Fail (the same execution, run and item), so a create whose answer was lost is not made twice; another
 * run of the node (a loop) or another execution makes a new one. Outside an execution (a trigger's activation), a
 * new key per call.
 */
export function idempotencyKeyOf(this: StoreSuppliersContext, route: Route, itemIndex = 0): string {
  const run = this as Partial<IExecuteFunctions>;
  const executionId = typeof run.getExecutionId === 'function' ? run.getExecutionId() : undefined;
  if (!executionId || typeof run.getWorkflowDataProxy !== 'function') {
    return `n8n-${this.getNode().id}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  }
  const runIndex = run.getWorkflowDataProxy(itemIndex).$runIndex as number;
  return `n8n-${executionId}-${this.getNode().id}-${runIndex}-${itemIndex}-${route.operationId}`.slice(0, 255);
}

export async function callRoute(this: StoreSuppliersContext, route: Route, params: Record<string, string>, options: RequestOptions = {}): Promise<unknown> {
  const headers = route.idempotent ? { 'Idempotency-Key': idempotencyKeyOf.call(this, route, options.itemIndex) } : undefined;
  return await apiRequest.call(this, route.method, routePath(route, params), {
    ...options,
    ...(headers ? { headers: { ...options.headers, ...headers } } : {}),
  });
}

/**
 * The one pager, for every Get Many, the trigger's poll and the From List searches. Without a limit it
 * follows `nextCursor` until `hasMore` is false and answers every row (read every page before acting on
 * rows, as the spec asks); with a limit it asks for pages of min(limit, 100) and stops as soon as it has
 * enough. Only for cursor-paged routes: the others refuse `pageSize` and `cursor`.
 */
export async function callRouteAllItems(
  this: StoreSuppliersContext,
  route: Route,
  params: Record<string, string>,
  { qs, itemIndex, limit }: RequestOptions & { limit?: number } = {},
): Promise<IDataObject[]> {
  const path = routePath(route, params);
  const rows: IDataObject[] = [];
  const pageSize = limit === undefined ? MAX_PAGE_SIZE : Math.max(1, Math.min(limit, MAX_PAGE_SIZE));
  let cursor: string | undefined;
  for (;;) {
    const page = (await apiRequest.call(this, route.method, path, { qs: { ...qs, pageSize, cursor }, itemIndex })) as Page;
    rows.push(...(page.items ?? []));
    if (limit !== undefined && rows.length >= limit) break;
    const next = page.pagination?.nextCursor;
    if (!page.pagination?.hasMore || !next) break;
    cursor = next;
  }
  return limit === undefined ? rows : rows.slice(0, limit);
}
