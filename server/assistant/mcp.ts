import type Router from '@koa/router';
import type * as McpServer from '@modelcontextprotocol/sdk/server/index.js';
import type * as McpTransport from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type * as McpTypes from '@modelcontextprotocol/sdk/types.js';
import { ApiError, databaseUnavailable, databaseUnavailableError, errors } from '../platform/errors';
import type { Logger, RequestLog } from '../platform/logger';
import { authenticateRequest, originOf, RouteRunner } from '../platform/http/app';
import type { Gate } from '../platform/http/gate';
import type { AnyRoute as RouteDef, Caller, JsonSchema } from '../platform/http/route';

import { MCP_PATH } from '../identity/assistant-link';

/**
 * The MCP SDK (and the zod it brings) is loaded by the first assistant request, not as the service starts: it was a
 * tenth of every start's CPU, for a link most processes never serve.
 */
let sdk: { Server: typeof McpServer.Server; Transport: typeof McpTransport.StreamableHTTPServerTransport; types: typeof McpTypes } | null = null;
function loadSdk(): NonNullable<typeof sdk> {
  sdk ??= {
    Server: (require('@modelcontextprotocol/sdk/server/index.js') as typeof McpServer).Server,
    Transport: (require('@modelcontextprotocol/sdk/server/streamableHttp.js') as typeof McpTransport).StreamableHTTPServerTransport,
    types: require('@modelcontextprotocol/sdk/types.js') as typeof McpTypes,
  };
  return sdk;
}

/** Besides them, a store order with its payments and its refund (issue 53): what a supplier order's money answers to. */
const STORE_ORDER_TOOLS = new Set(['getStoreOrder', 'refundStoreOrder']);

/** The routes offered as tools: every supplier route a key may call, and the store order's payments. */
function isAssistantRoute(route: RouteDef): boolean {
  return (route.path.startsWith('/api/store-suppliers/') || STORE_ORDER_TOOLS.has(route.operationId)) && route.auth === 'caller';
}

function pathParams(path: string): string[] {
  return [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);
}

/** One tool per route: path and query fields at the top level, the request body under `body`. */
function toolOf(route: RouteDef) {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const paramProps = (route.params?.properties ?? {}) as Record<string, JsonSchema>;
  for (const name of pathParams(route.path)) {
    properties[name] = paramProps[name] ?? { type: 'string' };
    required.push(name);
  }
  for (const [name, schema] of Object.entries((route.query?.properties ?? {}) as Record<string, JsonSchema>)) properties[name] = schema;
  // A query field the route requires (the profit report's from and to) is required of the tool too.
  required.push(...((route.query?.required as string[] | undefined) ?? []));
  if (route.body) {
    properties.body = route.body;
    if (((route.body.required as string[]) ?? []).length) required.push('body');
  }
  return {
    name: route.operationId,
    title: route.summary,
    description: [
      route.summary,
      route.description,
      route.permission ? `Needs the store permission ${route.permission}.` : '',
      route.planGated ? "Needs the store owner's plan to include dropshipping." : '',
    ]
      .filter(Boolean)
      .join(' '),
    inputSchema: { type: 'object' as const, properties, required, additionalProperties: false },
    annotations: { title: route.summary, readOnlyHint: route.readOnly, destructiveHint: !route.readOnly, openWorldHint: true },
  };
}

/**
 * The assistant link: Model Context Protocol over Streamable HTTP, stateless. Every HTTP request is
 * authenticated like any REST call, so a revoked key fails on its very next call and a changed record
 * scope applies at once; every tool call runs the same compiled route as its REST twin.
 */
export function mountAssistant(router: Router, opts: { runners: RouteRunner[]; gate: Gate; version: string }): void {
  const runners = opts.runners.filter((r) => isAssistantRoute(r.route));
  const tools = runners.map((r) => toolOf(r.route));
  const byName = new Map(runners.map((r) => [r.route.operationId, r]));

  const serverFor = (caller: Caller, base: { origin: string; requestId: string; log: Logger; headers: Record<string, string | string[] | undefined> }) => {
    const { Server, types } = loadSdk();
    const server = new Server({ name: 'store-suppliers', version: opts.version }, { capabilities: { tools: {} } });
    server.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools }));
    server.setRequestHandler(types.CallToolRequestSchema, async (req) => {
      const runner = byName.get(req.params.name);
      if (!runner) return { isError: true, content: [{ type: 'text' as const, text: JSON.stringify(errors.notFound('The tool').toBody()) }] };
      const args = (req.params.arguments ?? {}) as Record<string, unknown>;
      const params: Record<string, string> = {};
      for (const name of pathParams(runner.route.path)) if (args[name] !== undefined) params[name] = String(args[name]);
      const query: Record<string, unknown> = {};
      for (const name of Object.keys((runner.route.query?.properties ?? {}) as object)) if (args[name] !== undefined) query[name] = args[name];
      const unknown = Object.keys(args).filter((k) => !(k in params) && !(k in query) && k !== 'body');
      try {
        if (unknown.length) throw errors.validationFailed(unknown.map((k) => ({ field: k, message: 'is not a known field' })));
        const out = await runner.run({
          caller,
          params,
          query,
          body: args.body,
          headers: base.headers,
          origin: base.origin,
          requestId: base.requestId,
          log: base.log,
        });
        const payload = (out.body ?? { result: null }) as Record<string, unknown>;
        return { content: [{ type: 'text' as const, text: JSON.stringify(payload) }], structuredContent: payload, isError: out.status >= 400 };
      } catch (caught) {
        // A database away is a refusal the assistant can retry, as over HTTP (503), not a failed tool.
        const err = !(caught instanceof ApiError) && databaseUnavailable(caught) ? databaseUnavailableError() : caught;
        if (!(err instanceof ApiError)) {
          base.log.error({ err, tool: req.params.name }, 'assistant tool failed');
          throw err;
        }
        return { isError: true, content: [{ type: 'text' as const, text: JSON.stringify(err.toBody()) }], structuredContent: err.toBody() };
      }
    });
    return server;
  };

  router.post(MCP_PATH, async (ctx) => {
    ctx.state.routePath = MCP_PATH;
    const caller = await authenticateRequest(ctx, opts.gate, 'caller');
    const server = serverFor(caller!, {
      origin: originOf(ctx),
      requestId: ctx.state.requestId,
      log: (ctx.state.request as RequestLog).log,
      headers: ctx.headers,
    });
    const transport = new (loadSdk().Transport)({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    // The transport answers on the raw response; Koa must leave it alone.
    ctx.status = 200;
    ctx.respond = false;
    ctx.res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await transport.handleRequest(ctx.req, ctx.res, ctx.request.body);
  });
  // Stateless: there is no stream to open and no session to end.
  router.get(MCP_PATH, () => {
    throw errors.methodNotAllowed();
  });
  router.delete(MCP_PATH, () => {
    throw errors.methodNotAllowed();
  });
}
