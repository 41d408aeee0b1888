import { byCaller, defineRoutes, RequestContext, route } from '../platform/http/route';
import { object, params } from '../platform/http/schemas';
import { automationFields, connectionSchema } from './schemas';
import type { ConnectionService } from './service';

const BASE = '/api/store-suppliers';
const TAG = 'Supplier connections';
const storeAndConnection = params(['storeId', 'id']);

/** A connection's settings, its automation and whether it is on. */
export function connectionSettingsRoutes(connections: ConnectionService, load: (ctx: RequestContext) => ReturnType<ConnectionService['get']>) {
  return defineRoutes([
    route({
      operationId: 'changeSupplierSettings',
      method: 'put',
      path: `${BASE}/:storeId/:id/settings`,
      ...byCaller(TAG, 'suppliers.manage', false),
      summary: "Change the supplier's own settings (validated against its settings schema)",
      params: storeAndConnection,
      body: object({ settings: { type: 'object' } }, ['settings']),
      response: { status: 200, schema: connectionSchema },
      handler: async (ctx) => connections.present(await connections.changeSettings(await load(ctx), ctx.body.settings)),
    }),
    route({
      operationId: 'changeSupplierAutomation',
      method: 'put',
      path: `${BASE}/:storeId/:id/automation`,
      tag: TAG,
      auth: 'caller',
      permission: 'suppliers.manage',
      planGated: true,
      readOnly: false,
      summary: 'Change how orders are sent and the limits that stop them; fields left out keep their values',
      params: storeAndConnection,
      body: object(automationFields, [], { minProperties: 1 }),
      response: { status: 200, schema: connectionSchema },
      handler: async (ctx) => connections.present(await connections.changeAutomation(await load(ctx), ctx.body)),
    }),
    route({
      operationId: 'setSupplierConnectionEnabled',
      method: 'put',
      path: `${BASE}/:storeId/:id/enabled`,
      tag: TAG,
      auth: 'caller',
      permission: 'suppliers.manage',
      planGated: { when: (body) => body?.enabled === true, description: 'when enabled is true' },
      readOnly: false,
      summary: "Switch the connection on or off (switching on needs the owner's plan to include dropshipping)",
      params: storeAndConnection,
      body: object({ enabled: { type: 'boolean' } }, ['enabled']),
      response: { status: 200, schema: connectionSchema },
      handler: async (ctx) => connections.present(await connections.setEnabled(await load(ctx), ctx.body.enabled)),
    }),
  ]);
}
