import type { AnyRoute, JsonSchema } from './route';
import { errorBody } from './schemas';
import { boundStrings } from './text';

function toOpenApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

function parameters(schema: JsonSchema | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  schema = boundStrings(schema);
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[]) ?? []);
  return Object.entries(props).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' ? true : required.has(name),
    ...(s.description ? { description: s.description } : {}),
    schema: s,
  }));
}

/** The route's price as the document states it; `x-credit-unit` says what one price buys when it is not a request. */
function creditExtensions(rule: NonNullable<AnyRoute['credits']>) {
  const charged =
    typeof rule.when === 'function'
      ? 'per unit: at once up to the inline limit, else once per record made'
      : rule.when === 'recordCreated'
        ? 'once per record made'
        : 'per request';
  return { 'x-credit-action': rule.action, 'x-credit-price': rule.price, ...(rule.unit ? { 'x-credit-unit': rule.unit } : {}), 'x-credit-charged': charged };
}

const SECURITY: Record<AnyRoute['auth'], Array<Record<string, string[]>>> = {
  none: [],
  carried: [],
  session: [{ session: [] }],
  caller: [{ apiKey: [] }, { session: [] }],
  operator: [{ operatorToken: [] }],
};

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

function rateLimitedResponse(rule: NonNullable<AnyRoute['rateLimit']>) {
  const shared = rule.shared ? ` (one budget shared by ${rule.shared.join(' and ')})` : '';
  return {
    ...errorResponse(`rateLimited: at most ${rule.limit} calls per ${rule.per} in any ${rule.windowSeconds} seconds${shared}; wait Retry-After seconds`),
    headers: { 'Retry-After': { description: 'Seconds until a call is allowed again', schema: { type: 'integer', minimum: 1 } } },
  };
}

const serviceUnavailableResponse = {
  ...errorResponse('serviceUnavailable: the database cannot be reached for now; a call that is safe to repeat can be sent again after Retry-After seconds'),
  headers: { 'Retry-After': { description: 'Seconds to wait before sending the call again', schema: { type: 'integer', minimum: 1 } } },
};

const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    "A key of your own (a UUID) naming this one create or money action: sent again with the same key and body, within 24 hours, the first answer is replayed (status and body, with `Idempotent-Replayed: true`) and nothing runs twice. Keys are the caller's (the API key, or the signed-in account). A 5xx answer is not kept: send it again.",
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

/** A keyed route's own refusals, beside what the route already says under 409 and 422. */
function idempotentResponses(responses: Record<string, unknown>): void {
  const also = (status: string, text: string) => {
    const had = responses[status] as { description?: string } | undefined;
    responses[status] = errorResponse(had?.description ? `${had.description}; or ${text}` : text);
  };
  also('409', 'idempotencyKeyInProgress: a request with this Idempotency-Key is still running (Retry-After)');
  also('422', 'idempotencyKeyReused: this Idempotency-Key was used with another request');
}

/** The OpenAPI 3.1 document, derived from the one route table. */
export function buildOpenApi(routes: AnyRoute[], opts: { version: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const responses: Record<string, unknown> = {};
    const ok = r.response;
    responses[String(ok.status)] =
      ok.status === 204
        ? { description: ok.description ?? 'Done; no content' }
        : {
            description: ok.description ?? 'Success',
            content: { 'application/json': { schema: ok.raw ? ok.schema : { type: 'object', properties: { result: ok.schema }, required: ['result'] } } },
          };
    for (const [status, text] of r.extraResponses ?? []) responses[String(status)] = text;
    responses['400'] = errorResponse('validationFailed, malformedJson, invalidCursor or another stable code');
    if (r.auth === 'operator') responses['401'] = errorResponse('unauthenticated: missing or wrong operator token');
    else if (r.auth !== 'none' && r.auth !== 'carried') responses['401'] = errorResponse('unauthenticated: missing, unknown or revoked key or session');
    if (r.credits) responses['402'] = errorResponse('insufficientCredits');
    if (r.auth === 'session' || ((r.permission || r.planGated) && r.auth !== 'carried'))
      responses['403'] = errorResponse('permissionDenied, planRequired or keysCannotManageKeys');
    if (r.params) responses['404'] = errorResponse('notFound: unknown, outside the record scope, or in another store');
    if (r.countLimit) responses['409'] = errorResponse(`${r.countLimit.code}: the store already has ${r.countLimit.limit} ${r.countLimit.of}`);
    if (r.rateLimit) responses['429'] = rateLimitedResponse(r.rateLimit);
    if (r.idempotent) idempotentResponses(responses);
    // Any route, while the database cannot be reached (a Postgres restart, a fail-over): never a 500 for that.
    responses['503'] = serviceUnavailableResponse;
    if (r.body) {
      responses['413'] = errorResponse('payloadTooLarge');
      responses['415'] = errorResponse('unsupportedMediaType');
    }
    const op: Record<string, unknown> = {
      operationId: r.operationId,
      summary: r.summary,
      ...(r.description ? { description: r.description } : {}),
      tags: [r.tag],
      security: SECURITY[r.auth],
      parameters: [
        ...parameters(r.params, 'path'),
        ...parameters(r.query, 'query'),
        ...(r.headers ?? []),
        ...(r.idempotent ? [IDEMPOTENCY_KEY_PARAMETER] : []),
      ],
      responses,
      'x-read-only': r.readOnly,
      // A carried caller never sees 403: its checks answer the route's one refusal (see the description).
      ...(r.permission && r.auth !== 'carried' ? { 'x-permission': r.permission } : {}),
      ...(r.auth === 'carried' ? {} : r.planGated === true ? { 'x-plan-gated': true } : r.planGated ? { 'x-plan-gated': r.planGated.description } : {}),
      ...(r.credits ? creditExtensions(r.credits) : {}),
      ...(r.rateLimit
        ? {
            'x-rate-limit': {
              limit: r.rateLimit.limit,
              windowSeconds: r.rateLimit.windowSeconds,
              per: r.rateLimit.per,
              ...(r.rateLimit.shared ? { shared: r.rateLimit.shared } : {}),
            },
          }
        : {}),
      ...(r.countLimit ? { 'x-limit': { limit: r.countLimit.limit, per: r.countLimit.per, of: r.countLimit.of } } : {}),
    };
    if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: boundStrings(r.body) } } };
    const p = toOpenApiPath(r.path);
    paths[p] = { ...(paths[p] ?? {}), [r.method]: op };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Store Suppliers API',
      version: opts.version,
      description:
        'Supplier connections, supplier products, imports, product links and supplier orders of a store, plus the account, key, store and order routes they rely on. Send an API key in `X-API-Key`, or a session token as `Authorization: Bearer`.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        session: { type: 'http', scheme: 'bearer', description: 'Session token from /api/auth/sign-in' },
        operatorToken: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Operator-Token',
          description: 'The operator of the service (OPERATOR_TOKEN); without one configured the operator API answers 404',
        },
      },
      schemas: { Error: errorBody },
    },
    paths,
  };
}

/** The document with the one server it is served from, placed after `info` where readers look for it. */
export function withServer(doc: ReturnType<typeof buildOpenApi>, url: string) {
  const { openapi, info, ...rest } = doc;
  return { openapi, info, servers: [{ url, description: 'This service' }], ...rest };
}
