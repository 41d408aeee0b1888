import { ownRecordsKeyId } from '../identity/permissions';
import { byCaller, defineRoutes, RequestContext, route } from '../platform/http/route';
import { object, params } from '../platform/http/schemas';
import type { SupplierRegistry } from '../suppliers/registry';
import {
  catalogueEntrySchema,
  connectionSchema,
  credentials,
  disconnectedSchema,
  impactSchema,
  moneySchema,
  storeRoutingSchema,
  routingRuleSchema,
} from './schemas';
import type { StoreRouting } from './routing';
import type { ConnectionService, KeptOfConnection } from './service';
import type { SignInService } from './sign-in';
import { connectRoutes } from './connect-routes';
import { connectionSettingsRoutes } from './settings-routes';

const BASE = '/api/store-suppliers';
const TAG = 'Supplier connections';
const storeAndConnection = params(['storeId', 'id']);

export function connectionRoutes(
  connections: ConnectionService,
  signIn: SignInService,
  registry: SupplierRegistry,
  routing: StoreRouting,
  kept: KeptOfConnection,
) {
  const load = (ctx: RequestContext) => connections.get(ctx.params.storeId, ctx.params.id, ownRecordsKeyId(ctx.caller));
  return defineRoutes([
    route({
      operationId: 'listSupplierCatalogue',
      method: 'get',
      path: `${BASE}/:storeId/catalogue`,
      ...byCaller(TAG, 'suppliers.view', true),
      summary: 'Suppliers the store can connect, with what each can do',
      params: params(['storeId']),
      response: { status: 200, schema: { type: 'array', items: catalogueEntrySchema } },
      handler: async () => registry.entries(),
    }),
    route({
      operationId: 'listSupplierConnections',
      method: 'get',
      path: `${BASE}/:storeId`,
      ...byCaller(TAG, 'suppliers.view', true),
      summary: "The store's connections with health and automation; credentials are never returned",
      params: params(['storeId']),
      response: { status: 200, schema: { type: 'array', items: connectionSchema } },
      handler: async ({ params: p, caller }) => connections.present(await connections.list(p.storeId, ownRecordsKeyId(caller))),
    }),
    // Before the /:storeId/:id routes, which would take `routing` for a connection's id.
    route({
      operationId: 'getSupplierRouting',
      method: 'get',
      path: `${BASE}/:storeId/routing`,
      ...byCaller(TAG, 'suppliers.view', true),
      summary: "The store's routing rule: how a part's supplier is chosen among its link's primary and alternates",
      params: params(['storeId']),
      response: { status: 200, schema: storeRoutingSchema },
      handler: async ({ params: p }) => routing.get(p.storeId),
    }),
    route({
      operationId: 'changeSupplierRouting',
      method: 'put',
      path: `${BASE}/:storeId/routing`,
      ...byCaller(TAG, 'suppliers.manage', false),
      summary: "Set the store's routing rule (a product link's own rule overrides it)",
      description:
        "Dispatch chooses each part's supplier by it before the first create (not primary: live quotes of the primary and its alternates in the store's currency; the choice is in the part's history and the event supplierOrder.routed); docs/api.md, \"Routing rule\".",
      params: params(['storeId']),
      body: object({ routing: routingRuleSchema }, ['routing']),
      response: { status: 200, schema: storeRoutingSchema },
      handler: async ({ params: p, body }) => routing.set(p.storeId, body.routing),
    }),
    ...connectRoutes(connections, signIn, registry),
    route({
      operationId: 'replaceSupplierCredentials',
      method: 'put',
      path: `${BASE}/:storeId/:id`,
      tag: TAG,
      auth: 'caller',
      permission: 'suppliers.manage',
      planGated: true,
      readOnly: false,
      summary: "Replace the connection's credentials; verified with the supplier first",
      params: storeAndConnection,
      body: object({ credentials }, ['credentials']),
      response: { status: 200, schema: connectionSchema },
      async handler(ctx) {
        const conn = await load(ctx);
        const creds = connections.settings.validateCredentials(registry.find(conn.supplierKey)!, ctx.body.credentials);
        return connections.present(await connections.replaceCredentials(conn, creds));
      },
    }),
    route({
      operationId: 'testSupplierConnection',
      method: 'post',
      path: `${BASE}/:storeId/:id/test`,
      ...byCaller(TAG, 'suppliers.manage', false),
      summary: 'Check the connection now and record its health',
      params: storeAndConnection,
      response: { status: 200, schema: connectionSchema },
      handler: async (ctx) => connections.present(await connections.test(await load(ctx))),
    }),
    route({
      operationId: 'getSupplierBalance',
      method: 'get',
      path: `${BASE}/:storeId/:id/balance`,
      ...byCaller(TAG, 'suppliers.view', true),
      summary: 'Account balance at the supplier, where the supplier reports one',
      params: storeAndConnection,
      response: { status: 200, schema: moneySchema },
      handler: async (ctx) => connections.balance(await load(ctx)),
    }),
    route({
      operationId: 'getDisconnectImpact',
      method: 'get',
      path: `${BASE}/:storeId/:id/impact`,
      ...byCaller(TAG, 'suppliers.view', true),
      summary: 'What disconnecting would affect: linked products and open supplier orders',
      params: storeAndConnection,
      response: { status: 200, schema: impactSchema },
      handler: async (ctx) => connections.impact(await load(ctx), kept),
    }),
    ...connectionSettingsRoutes(connections, load),
    route({
      operationId: 'disconnectSupplier',
      method: 'delete',
      path: `${BASE}/:storeId/:id`,
      ...byCaller(TAG, 'suppliers.manage', false),
      summary: "Disconnect: credentials and the connection's product links are deleted; imported products stay as the store's own",
      params: storeAndConnection,
      response: { status: 200, schema: disconnectedSchema },
      async handler(ctx) {
        const conn = await load(ctx);
        const { impact, removedLinks, handOverError } = await connections.disconnect(conn, kept);
        if (handOverError)
          ctx.log.warn({ connectionId: conn.id, err: String(handOverError) }, "notification address not handed over to the account's other connection");
        return { id: conn.id, disconnected: true, impact, removedLinks };
      },
    }),
  ]);
}
