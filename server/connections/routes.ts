import { creatorOf, ownRecordsKeyId } from '../identity/permissions';
import { defineRoutes, route, Reply, RequestContext } from '../platform/http/route';
import { object, params, uuid } from '../platform/http/schemas';
import type { SupplierRegistry } from '../suppliers/registry';
import { automationFields, catalogueEntrySchema, connectionSchema, modeSchema, moneySchema } from './schemas';
import type { ConnectionService } from './service';
import { SIGN_IN_CALLBACK_PATH, SIGN_IN_REFUSED, SignInService } from './sign-in';

const BASE = '/api/store-suppliers';
const TAG = 'Supplier connections';
/** Connecting costs the same by key and by sign-in. */
const CONNECT_CREDITS = { action: 'supplierConnection.connect', price: 5 };
const supplierKey = { type: 'string', pattern: '^[a-z0-9-]{1,40}$' } as const;
const credentials = { type: 'object', description: 'The supplier\'s credentials, as its `credentialsSchema` in the catalogue describes (for example `{ "apiKey": "..." }`)' } as const;
const storeAndConnection = params(['storeId', 'id']);

export function connectionRoutes(connections: ConnectionService, signIn: SignInService, registry: SupplierRegistry) {
  const load = (ctx: RequestContext) => connections.get(ctx.params.storeId, ctx.params.id, ownRecordsKeyId(ctx.caller));
  return defineRoutes([
    route({
      operationId: 'listSupplierCatalogue',
      method: 'get',
      path: `${BASE}/:storeId/catalogue`,
      summary: 'Suppliers the store can connect, with what each can do',
      tag: TAG,
      auth: 'caller',
      permission: 'suppliers.view',
      readOnly: true,
      params: params(['storeId']),
      response: { status: 200, schema: { type: 'array', items: catalogueEntrySchema } },
      async handler() {
        return registry.entries();
      },
    }),
    route({
      operationId: 'listSupplierConnections',
      method: 'get',
      path: `${BASE}/:storeId`,
      summary: 'The store\'s connections with health and automation; credentials are never returned',
      tag: TAG,
      auth: 'caller',
      permission: 'suppliers.view',
      readOnly: true,
      params: params(['storeId']),
      response: { status: 200, schema: { type: 'array', items: connectionSchema } },
      async handler({ params: p, caller }) {
        return connections.present(await connections.list(p.storeId, ownRecordsKeyId(caller)));
      },
    }),
    route({
      operationId: 'connectSupplier',
      method: 'post',
      path: `${BASE}/:storeId`,
      summary: 'Connect a supplier with its API key; the key is verified with the supplier before it is stored',
      description: 'A second connection to a supplier account that already has one (another store, or a reconnect) keeps both working and answers `sharedSupplierAccount: true`.',
      tag: TAG,
      auth: 'caller',
      permission: 'suppliers.manage',
      planGated: true,
      credits: CONNECT_CREDITS,
      readOnly: false,
      params: params(['storeId']),
      body: object(
        { supplierKey, mode: modeSchema, credentials, settings: { type: 'object' }, automation: object(automationFields) },
        ['supplierKey', 'mode', 'credentials'],
      ),
      response: { status: 201, schema: connectionSchema },
      async handler({ params: p, body, caller }) {
        const adapter = registry.find(body.supplierKey);
        // Without an adapter, connect refuses the supplier key before it looks at credentials.
        const creds = adapter ? connections.validateCredentials(adapter, body.credentials) : {};
        return connections.present(await connections.connect(p.storeId, { ...body, credentials: creds }, creatorOf(caller!)));
      },
    }),
    route({
      operationId: 'startSupplierSignIn',
      method: 'post',
      path: `${BASE}/:storeId/oauth/start`,
      summary: 'Start connecting a supplier that uses sign-in; answers the address to send the merchant to',
      description: `The supplier sends the merchant back to ${SIGN_IN_CALLBACK_PATH} with a code; that call creates the connection. The state expires after 10 minutes and works once.`,
      tag: TAG,
      auth: 'caller',
      permission: 'suppliers.manage',
      planGated: true,
      readOnly: false,
      params: params(['storeId']),
      body: object({ supplierKey, mode: modeSchema }, ['supplierKey', 'mode']),
      response: { status: 200, schema: object({ authorizationUrl: { type: 'string' }, state: { type: 'string' }, expiresAt: { type: 'string', format: 'date-time' } }, ['authorizationUrl', 'state', 'expiresAt']) },
      async handler({ params: p, body, caller, origin }) {
        return signIn.start(p.storeId, { accountId: caller!.accountId, apiKeyId: caller!.apiKey?.id ?? null }, body, connections.publicBase() || origin);
      },
    }),
    route({
      operationId: 'completeSupplierSignIn',
      method: 'get',
      path: SIGN_IN_CALLBACK_PATH,
      summary: 'Where the supplier sends the merchant back after sign-in; exchanges the code and creates the connection (or signs the existing one in again)',
      description: 'Authenticated by the signed, single-use state, not by a key: the user who started the sign-in must still hold the permission, on a plan with dropshipping; any refusal answers invalidSignInState.',
      tag: TAG,
      auth: 'carried',
      carriedCaller: (query) => signIn.consume(query.state),
      refusal: SIGN_IN_REFUSED,
      permission: 'suppliers.manage',
      planGated: true,
      credits: CONNECT_CREDITS,
      readOnly: false,
      query: object({ state: { type: 'string', maxLength: 400 }, code: { type: 'string', maxLength: 400 }, error: { type: 'string', maxLength: 200 } }, ['state']),
      response: { status: 201, schema: connectionSchema },
      async handler({ query, carried, store, caller, credits }) {
        const { conn, renewed } = await signIn.complete(carried, query, store!.storeId, creatorOf(caller!), ownRecordsKeyId(caller));
        // Signing in again renews an existing connection, which (like replacing its credentials) costs nothing.
        if (renewed) credits.refundUnits(1);
        return new Reply(201, await connections.present(conn));
      },
    }),
    route({
      operationId: 'replaceSupplierCredentials',
      method: 'put',
      path: `${BASE}/:storeId/:id`,
      summary: 'Replace the connection\'s credentials; verified with the supplier first',
      tag: TAG,
      auth: 'caller',
      permission: 'suppliers.manage',
      planGated: true,
      readOnly: false,
      params: storeAndConnection,
      body: object({ credentials }, ['credentials']),
      response: { status: 200, schema: connectionSchema },
      async handler(ctx) {
        const conn = await load(ctx);
        const creds = connections.validateCredentials(registry.find(conn.supplierKey)!, ctx.body.credentials);
        return connections.present(await connections.replaceCredentials(conn, creds));
      },
    }),
    route({
      operationId: 'testSupplierConnection',
      method: 'post',
      path: `${BASE}/:storeId/:id/test`,
      summary: 'Check the connection now and record its health',
      tag: TAG,
      auth: 'caller',
      permission: 'suppliers.manage',
      readOnly: false,
      params: storeAndConnection,
      response: { status: 200, schema: connectionSchema },
      async handler(ctx) {
        return connections.present(await connections.test(await load(ctx)));
      },
    }),
    route({
      operationId: 'getSupplierBalance',
      method: 'get',
      path: `${BASE}/:storeId/:id/balance`,
      summary: 'Account balance at the supplier, where the supplier reports one',
      tag: TAG,
      auth: 'caller',
      permission: 'suppliers.view',
      readOnly: true,
      params: storeAndConnection,
      response: { status: 200, schema: moneySchema },
      async handler(ctx) {
        return connections.balance(await load(ctx));
      },
    }),
    route({
      operationId: 'getDisconnectImpact',
      method: 'get',
      path: `${BASE}/:storeId/:id/impact`,
      summary: 'What disconnecting would affect: linked products and open supplier orders',
      tag: TAG,
      auth: 'caller',
      permission: 'suppliers.view',
      readOnly: true,
      params: storeAndConnection,
      response: { status: 200, schema: object({ linkedProducts: { type: 'integer' }, openSupplierOrders: { type: 'integer' } }, ['linkedProducts', 'openSupplierOrders']) },
      async handler(ctx) {
        return connections.impact(await load(ctx));
      },
    }),
    route({
      operationId: 'changeSupplierSettings',
      method: 'put',
      path: `${BASE}/:storeId/:id/settings`,
      summary: 'Change the supplier\'s own settings (validated against its settings schema)',
      tag: TAG,
      auth: 'caller',
      permission: 'suppliers.manage',
      readOnly: false,
      params: storeAndConnection,
      body: object({ settings: { type: 'object' } }, ['settings']),
      response: { status: 200, schema: connectionSchema },
      async handler(ctx) {
        return connections.present(await connections.changeSettings(await load(ctx), ctx.body.settings));
      },
    }),
    route({
      operationId: 'changeSupplierAutomation',
      method: 'put',
      path: `${BASE}/:storeId/:id/automation`,
      summary: 'Change how orders are sent and the limits that stop them; fields left out keep their values',
      tag: TAG,
      auth: 'caller',
      permission: 'suppliers.manage',
      planGated: true,
      readOnly: false,
      params: storeAndConnection,
      body: object(automationFields, [], { minProperties: 1 }),
      response: { status: 200, schema: connectionSchema },
      async handler(ctx) {
        return connections.present(await connections.changeAutomation(await load(ctx), ctx.body));
      },
    }),
    route({
      operationId: 'setSupplierConnectionEnabled',
      method: 'put',
      path: `${BASE}/:storeId/:id/enabled`,
      summary: 'Switch the connection on or off (switching on needs the owner\'s plan to include dropshipping)',
      tag: TAG,
      auth: 'caller',
      permission: 'suppliers.manage',
      planGated: { when: (body) => body?.enabled === true, description: 'when enabled is true' },
      readOnly: false,
      params: storeAndConnection,
      body: object({ enabled: { type: 'boolean' } }, ['enabled']),
      response: { status: 200, schema: connectionSchema },
      async handler(ctx) {
        return connections.present(await connections.setEnabled(await load(ctx), ctx.body.enabled));
      },
    }),
    route({
      operationId: 'disconnectSupplier',
      method: 'delete',
      path: `${BASE}/:storeId/:id`,
      summary: 'Disconnect: credentials and the connection\'s product links are deleted; imported products stay as the store\'s own',
      tag: TAG,
      auth: 'caller',
      permission: 'suppliers.manage',
      readOnly: false,
      params: storeAndConnection,
      response: {
        status: 200,
        schema: object(
          {
            id: uuid,
            disconnected: { const: true },
            impact: { type: 'object', description: 'What the connection had when it was disconnected, as GET .../impact counts it' },
            removedLinks: { type: 'integer', description: 'Product links removed with the connection; their products stay as the store\'s own, unlinked' },
          },
          ['id', 'disconnected', 'impact', 'removedLinks'],
        ),
      },
      async handler(ctx) {
        const conn = await load(ctx);
        const { impact, removedLinks, handOverError } = await connections.disconnect(conn);
        if (handOverError) ctx.log.warn({ connectionId: conn.id, err: String(handOverError) }, 'notification address not handed over to the account\'s other connection');
        return { id: conn.id, disconnected: true, impact, removedLinks };
      },
    }),
  ]);
}

