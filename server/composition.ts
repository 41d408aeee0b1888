import type { DataSource } from 'typeorm';
import type { Config } from './platform/config';
import { type LookupKeys, Secrets } from './platform/crypto';
import { createDataSource, type DbTimeouts } from './platform/db';
import type { Domain, Platform } from './platform/domain';
import type { Boss } from './platform/jobs';
import type { Logger } from './platform/logger';
import { Cursors } from './platform/pagination';
import { buildApp } from './platform/http/app';
import { buildOpenApi, withServer } from './platform/http/openapi';
import type { AnyRoute } from './platform/http/route';
import { MIGRATIONS } from './migrations';
import { identityDomain } from './identity';
import { operatorDomain } from './operator';
import { storesDomain } from './stores';
import { supplierRegistry } from './suppliers';
import { connectionsDomain } from './connections';
import { notificationsDomain } from './notifications';
import { catalogueDomain } from './catalogue';
import { ordersDomain } from './orders';
import { paymentsDomain } from './payments';
import { dispatchDomain } from './dispatch';
import { eventsDomain } from './events';
import { supplierOrderSchema } from './dispatch/schemas';
import { mountAssistant } from './assistant/mcp';
import { mountConsole } from './console/serve';

export const VERSION = '4.4.0';
export const openDatabase = (url: string, poolSize?: number, timeouts?: DbTimeouts): DataSource => createDataSource(url, MIGRATIONS, poolSize, timeouts);

/** Every domain, built once per process, each from the platform and the domains it needs (`lookup`: the database's, platform/lookup-keys.ts). */
export function buildServices(config: Config, db: DataSource, log: Logger, boss: Boss, databaseUrl: string, lookup?: LookupKeys) {
  const secrets = new Secrets([config.appSecret, ...config.appSecretsPrevious], lookup);
  const p: Platform = { config, db, databaseUrl, log, boss, secrets, cursors: new Cursors(secrets) };
  const identity = identityDomain(p);
  const operator = operatorDomain(p, identity);
  const stores = storesDomain(p, identity);
  const registry = supplierRegistry(config);
  const connections = connectionsDomain(p, { registry, members: identity.gate });
  const { gateway } = connections;
  const notifications = notificationsDomain(p, { registry, gateway });
  const catalogue = catalogueDomain(p, { gateway, connections: connections.connections, products: stores.products, credits: identity.credits, memberAccess: identity.ownerAccess });
  // Dispatch is built from the orders; the orders' answers and events reach dispatch when they happen.
  const supplierOrders = { schema: supplierOrderSchema, ofOrders: (ids: string[], showCustomer: boolean) => dispatch.reads.ofOrders(ids, showCustomer) };
  const orders = ordersDomain(p, { supplierOrders, onEvent: (event) => dispatch.subscriptions.onStoreOrderEvent(event) });
  const payments = paymentsDomain(p, orders);
  const dispatch = dispatchDomain(p, { gateway, registry, orders: orders.orders, connections: connections.connections, captures: payments.captures, storeDropshipping: identity.storeDropshipping });
  const events = eventsDomain(p, { ownerAccess: identity.ownerAccess, renderers: { ...dispatch.eventRenderers, ...orders.eventRenderers, ...catalogue.eventRenderers, ...connections.eventRenderers } });
  // In route-table order: the notification addresses first, since their path shapes would also match /:storeId/:id/... routes.
  const domains: Domain[] = [notifications, events, payments, identity, operator, stores, connections, catalogue, dispatch, orders];
  return { ...p, registry, domains, feed: dispatch.feed, gate: identity.gate, accounts: identity.accounts, apiKeys: identity.apiKeys, operator: operator.operator, stores: stores.stores, connections: connections.connections, paymentProviders: payments.providers };
}
export type Services = ReturnType<typeof buildServices>;

/** The one route table: routing, validation, permissions, plan gate, credits and OpenAPI all come from it. */
export const routeTable = (s: Services): AnyRoute[] => s.domains.flatMap((d) => d.routes);

export function buildHttpApp(s: Services) {
  const routes = routeTable(s);
  let doc: ReturnType<typeof buildOpenApi> | undefined;
  // Built once; only `servers` follows the request (or PUBLIC_BASE_URL), since a reader calls the address it read from.
  const openApiDocument = (origin: string) => withServer((doc ??= buildOpenApi(routes, { version: VERSION })), s.config.publicBaseUrl || origin);
  return buildApp({
    routes,
    gate: s.gate,
    log: s.log,
    jsonBodyLimit: s.config.jsonBodyLimit,
    operatorToken: s.config.operatorToken,
    openApiDocument,
    ready: async () => {
      await s.db.query('SELECT 1');
      return true;
    },
    extraRoutes: (router, runners) => {
      mountAssistant(router, { runners, gate: s.gate, version: VERSION });
      mountConsole(router);
    },
  });
}
