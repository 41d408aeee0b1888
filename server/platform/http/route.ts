import type { EntityManager } from 'typeorm';
import type { Logger } from '../logger';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type JsonSchema = Record<string, unknown>;

/** Who may call: anyone, a signed-in user only (never a key), or a key or a session. */
export type RouteAuth = 'none' | 'session' | 'caller';

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

export interface RequestContext<P = Record<string, string>, Q = Record<string, unknown>, B = unknown> {
  requestId: string;
  params: P;
  query: Q;
  body: B;
  caller: Caller | null;
  store: StoreAccess | null;
  log: Logger;
  /** Charges credits for a per-unit action inside the handler (for example per imported product). */
  chargeCredits(action: string, quantity: number): Promise<void>;
  /**
   * For routes whose credits are charged once per record made (`creditWhen: 'recordCreated'`): charges the route's
   * price inside the transaction that makes the record, so a repeated call that makes nothing charges nothing.
   */
  chargeInTransaction(tx: EntityManager): Promise<void>;
  /** The raw request body, for routes that verify signatures over it. */
  rawBody?: string;
  headers: Record<string, string | string[] | undefined>;
  /** The scheme, host and port this request came to (for addresses handed back to the caller). */
  origin: string;
}

/** A handler's answer when it is not the route's usual status with `{ result }`. */
export class Reply {
  constructor(
    readonly status: number,
    readonly result: unknown,
    /** Send `body` as it is, without the `{ result }` envelope. */
    readonly raw = false,
  ) {}
}

export interface RouteDef {
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
  planGated?: boolean | { when(body: any): boolean; description: string };
  /** Credit price action (see identity/credits.ts); charged before the handler, refunded if it fails. */
  creditAction?: string;
  /** `recordCreated`: charged only when the handler makes its record, in that record's transaction (idempotent routes). */
  creditWhen?: 'request' | 'recordCreated';
  /** Whether the route changes anything (used by the OpenAPI document and assistant tools). */
  readOnly: boolean;
  params?: JsonSchema;
  query?: JsonSchema;
  /** Request headers the route reads, as OpenAPI parameter objects (documentation only). */
  headers?: Array<Record<string, unknown>>;
  body?: JsonSchema;
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
  /** Answers the value of `result`, or a Reply. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  handler(ctx: RequestContext<any, any, any>): Promise<unknown>;
}

/** Identity helper so route files get type checking without a class. */
export function defineRoutes(routes: RouteDef[]): RouteDef[] {
  return routes;
}
