import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { Queryable } from '../db';
import type { Logger } from '../logger';
import type { RateLimit } from '../rate-limit';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type JsonSchema = Record<string, unknown>;

/**
 * Who may call: anyone, a signed-in user only (never a key), a key or a session, the user a request carries
 * a token for (the sign-in callback: see `RouteDef.carriedCaller`), or the operator of the service (the
 * operator token; with none configured these routes do not exist).
 */
export type RouteAuth = 'none' | 'session' | 'caller' | 'carried' | 'operator';

/** The value a request schema admits, as ajv leaves it (defaults filled in); `Otherwise` when there is no schema. */
export type SchemaValue<S, Otherwise> = [S] extends [undefined] ? Otherwise : S extends JSONSchema ? FromSchema<S> : Otherwise;

export interface Caller {
  accountId: string;
  /** Set when the call is made with an API key. */
  apiKey?: { id: string; recordScope: 'own' | 'account' };
  sessionId?: string;
  /** What authentication already read about the credential and its account (the identity domain's own shape). */
  described?: unknown;
}

export interface StoreAccess {
  storeId: string;
  ownerAccountId: string;
  ownerPlan: string;
  isOwner: boolean;
  permissions: ReadonlySet<string>;
}

export interface RequestContext<P = Record<string, string>, Q = Record<string, unknown>, B = unknown, C = unknown> {
  requestId: string;
  params: P;
  query: Q;
  body: B;
  caller: Caller | null;
  store: StoreAccess | null;
  log: Logger;
  /** The route's credits as the pipeline charges them (see `CreditRule`). */
  credits: RouteCredits;
  /** What `carriedCaller` read from the request, for routes with `auth: 'carried'`. */
  carried: C;
  /** The raw request body, for routes that verify signatures over it. */
  rawBody?: string;
  headers: Record<string, string | string[] | undefined>;
  /** The scheme, host and port this request came to (for addresses handed back to the caller). */
  origin: string;
  /** The request's `Idempotency-Key`, when its route takes one (see `RouteDef.idempotent`). */
  idempotency: RequestIdempotency;
}

/** What a create tells its key, inside its own transaction: what it made (a no-op when no key was sent). */
export interface RequestIdempotency {
  made(tx: Queryable, ref: string): Promise<void>;
  /**
   * A digest naming the caller's key (null without one): the same on every retry of the request, another for another
   * caller. A money action hands it to the provider it calls, so that call too is made once.
   */
  key: string | null;
}

/** A handler's answer when it is not the route's usual status with `{ result }`. */
export class Reply {
  constructor(
    readonly status: number,
    readonly result: unknown,
    /** Send `body` as it is, without the `{ result }` envelope. */
    readonly raw = false,
    /** Response headers (a sign-in's browser cookie); only HTTP answers carry them. */
    readonly headers?: Record<string, string>,
  ) {}
}

/** Whose credits a charge takes: the caller's account, naming the key when a key made the call. */
export interface Payer {
  accountId: string;
  apiKeyId: string | null;
}

/** A route's price, stated once: the pipeline charges it, refunds it and documents it (with 402). */
export interface CreditRule<B = unknown> {
  /** The ledger's name for the action; a refund is `<action>.refund`. */
  action: string;
  /** Credits per unit. */
  price: number;
  /** What one unit is (`request` unless said) and how many a request asks for. */
  unit?: string;
  units?(body: B): number;
  /**
   * When the price is taken: `request` (the default) before the handler, held until the request ends, when the units
   * its work did not spend (`RouteCredits.spendInTransaction`) are refunded; `recordCreated` by the handler, inside the transaction that makes
   * each record, so a repeated call that makes nothing pays nothing. A function chooses per request.
   */
  when?: CreditTiming | ((body: B) => CreditTiming);
}
export type CreditTiming = 'request' | 'recordCreated';

/** A charge the handler hands to work that outlives the request (a background job): what to charge, and whom. */
export interface CreditTicket {
  action: string;
  price: number;
  payer: Payer;
}

export interface RouteCredits {
  /**
   * With `when: 'request'`: marks `units` of those charged up front spent, inside `tx`, the transaction doing their
   * work. When the request ends the units not spent are refunded, as they are when its process dies (the sweep).
   */
  spendInTransaction(tx: Queryable, units?: number): Promise<void>;
  /** With `when: 'recordCreated'`: charges `units` inside `tx`; `requestKey` names the charge in the ledger. */
  chargeInTransaction(tx: Queryable, units?: number, requestKey?: string): Promise<void>;
  /** With `when: 'recordCreated'`: the charge for records a background job makes later (see `CreditTicket`). */
  ticket(): CreditTicket;
}

export interface RouteDef<P = unknown, Q = unknown, B = unknown, C = unknown> {
  operationId: string;
  method: HttpMethod;
  /** Koa-style path, e.g. /api/store-suppliers/:storeId/links/:linkId */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  auth: RouteAuth;
  /** Store permission checked against :storeId; owner holds all. */
  permission?: string;
  /** Refused unless the store owner's plan includes dropshipping; a condition gates only some bodies. */
  planGated?: boolean | { when(body: SchemaValue<B, undefined>): boolean; description: string };
  /** A rate limit its handler takes (429 `rateLimited` with Retry-After): stated here for the document (`x-rate-limit`). */
  rateLimit?: RateLimit;
  /** How many of what it makes one store may have (409 `code` beyond): stated for the document (`x-limit`). */
  countLimit?: { limit: number; per: 'store'; of: string; code: string };
  /**
   * A create or a money action: it takes an `Idempotency-Key` (the pipeline replays the first answer). `recover` is
   * for a create that records what it made in its own transaction (`RequestContext.idempotency`): it rebuilds the
   * answer from that when the first request committed but never stored its answer.
   */
  idempotent?:
    | true
    | {
        recover(
          ctx: RequestContext<SchemaValue<P, Record<string, never>>, SchemaValue<Q, Record<string, never>>, SchemaValue<B, undefined>, C>,
          ref: string,
        ): Promise<unknown>;
      };
  /** What the route costs; absent: free. */
  credits?: CreditRule<SchemaValue<B, undefined>>;
  /**
   * With `auth: 'carried'`: the user the request carries a token for, and the store it names, or null. Store
   * access, permission, plan and credits are then checked as for any caller; any refusal answers `refusal`.
   */
  carriedCaller?(
    query: SchemaValue<Q, Record<string, unknown>>,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<{ caller: Caller; storeId: string; carried: C } | null>;
  /** With `auth: 'session'`: the 403 an API key gets (`keysCannotManageKeys` unless said). */
  keyRefusal?: unknown;
  /** Whether the route changes anything (used by the OpenAPI document and assistant tools). */
  readOnly: boolean;
  params?: P;
  query?: Q;
  /** Request headers the route reads, as OpenAPI parameter objects (documentation only). */
  headers?: Array<Record<string, unknown>>;
  body?: B;
  /** Success status and the schema of `result`. */
  response: { status: number; schema: JsonSchema; description?: string; raw?: boolean };
  /** Other documented answers, such as 202 for a background job. */
  extraResponses?: Array<[number, { description: string; content?: unknown }]>;
  /** Keeps the raw body for signature checks. */
  rawBody?: boolean;
  /**
   * With rawBody: the one 400 body answered for every refusal on this path (parameters, size, unknown path),
   * so a caller learns nothing about why.
   */
  refusal?: unknown;
  /** Answers the value of `result`, or a Reply. Its input is typed from the route's own schemas. */
  handler(ctx: RequestContext<SchemaValue<P, Record<string, never>>, SchemaValue<Q, Record<string, never>>, SchemaValue<B, undefined>, C>): Promise<unknown>;
}

/**
 * A route of the table, its schemas' types no longer needed: what reads the request (the plan gate, the credit rule,
 * the carried caller, the handler) takes what the pipeline hands it, values the validator checked against the schemas.
 */
export type AnyRoute = Omit<
  RouteDef<JsonSchema | undefined, JsonSchema | undefined, JsonSchema | undefined>,
  'planGated' | 'credits' | 'carriedCaller' | 'handler' | 'idempotent'
> & {
  idempotent?: true | { recover(ctx: RequestContext, ref: string): Promise<unknown> };
  planGated?: boolean | { when(body: unknown): boolean; description: string };
  credits?: CreditRule;
  carriedCaller?(
    query: Record<string, unknown>,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<{ caller: Caller; storeId: string; carried: unknown } | null>;
  handler(ctx: RequestContext): Promise<unknown>;
};

/** The access most routes declare: a caller (key or session) holding a store permission, and whether it writes. */
export const byCaller = (tag: string, permission: string, readOnly: boolean) => ({ tag, auth: 'caller' as const, permission, readOnly });

/** One route: the handler's params, query and body take their types from the schemas beside it. */
export function route<
  const P extends JSONSchema | undefined = undefined,
  const Q extends JSONSchema | undefined = undefined,
  const B extends JSONSchema | undefined = undefined,
  C = unknown,
>(def: RouteDef<P, Q, B, C>): AnyRoute {
  // The one place the schemas' types are let go: the pipeline validates every value against those schemas before it
  // reaches the handler, which the type system cannot see.
  return def as unknown as AnyRoute;
}

export function defineRoutes(routes: AnyRoute[]): AnyRoute[] {
  return routes;
}
