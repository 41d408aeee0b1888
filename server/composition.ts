import type { DataSource } from 'typeorm';
import type { Config } from './platform/config';
import { Secrets } from './platform/crypto';
import { createDataSource } from './platform/db';
import type { Domain, Platform } from './platform/domain';
import { type Boss, sendInTransaction } from './platform/jobs';
import { ListenFeed } from './platform/listen';
import type { Logger } from './platform/logger';
import { Cursors } from './platform/pagination';
import { buildApp } from './platform/http/app';
import { buildOpenApi } from './platform/http/openapi';
import type { AnyRoute } from './platform/http/route';
import { MIGRATIONS } from './migrations';
import { identityDomain } from './identity';
import { storesDomain } from './stores';
import { StoreVariant } from './stores/entities';
import { supplierRegistry } from './suppliers';
import { connectionsDomain } from './connections';
import { SupplierConnection } from './connections/entities';
import { notificationsDomain } from './notifications';
import { catalogueDomain } from './catalogue';
import { FulfilmentGroup, StoreOrder, StoreOrderItem } from './orders/entities';
import { OrderService } from './orders/service';
import { StoreOrderQueries } from './orders/queries';
import { storeOrderRoutes } from './orders/routes';
import { STORE_ORDER_EVENTS_QUEUE } from './orders/queues';
import { SupplierOrder } from './dispatch/entities';
import { createDispatch } from './dispatch';
import { openSupplierOrderCount } from './dispatch/sql';
import { CHANGE_CHANNEL } from './dispatch/records';
import { WORK_CHANNEL } from './dispatch/queues';
import { supplierOrderRoutes } from './dispatch/routes';
import { SupplierOrderReads } from './dispatch/views';
import { mountAssistant } from './assistant/mcp';
import { mountConsole } from './console/serve';

export const VERSION = '4.4.0';
// Entities left until orders and dispatch read through their sql.ts (issue 24); every other domain maps plain rows.
export const ENTITIES = [StoreVariant, SupplierConnection, StoreOrder, StoreOrderItem, FulfilmentGroup, SupplierOrder];

export function openDatabase(url: string, poolSize?: number): DataSource {
  return createDataSource(url, ENTITIES, MIGRATIONS, poolSize);
}

/** Every service, built once per process from the configuration, the database and the job queue. */
export function buildServices(config: Config, db: DataSource, log: Logger, boss: Boss, databaseUrl: string) {
  const secrets = new Secrets(config.appSecret);
  const cursors = new Cursors(secrets);
  const p: Platform = { config, db, log, boss, secrets, cursors };
  const identity = identityDomain(p);
  const stores = storesDomain(p, identity);
  const registry = supplierRegistry(config);
  const connections = connectionsDomain(p, { registry });
  const { gateway } = connections;
  const notifications = notificationsDomain(p, { registry, gateway });
  const catalogue = catalogueDomain(p, { gateway, connections: connections.connections, products: stores.products, credits: identity.credits });

  // Orders and dispatch are wired here (their workers in server/workers.ts) until issue 24 gives them their index.
  const feed = new ListenFeed(databaseUrl, [CHANGE_CHANNEL, WORK_CHANNEL], log);
  const orders = new OrderService(db, cursors, (tx, event) => sendInTransaction(boss, tx, STORE_ORDER_EVENTS_QUEUE, event));
  const dispatch = createDispatch({
    db, gateway, registry, orders, boss: () => boss, feed, log,
    config: { retryLimit: config.dispatchRetryLimit, retryBaseSeconds: config.dispatchRetryBaseSeconds, waitMs: config.dispatchWaitMs, sweepIntervalMs: config.dispatchSweepSeconds * 1000, sweepStaleSeconds: config.dispatchSweepStaleSeconds },
  });
  const orderQueries = new StoreOrderQueries(db, cursors);
  const supplierOrderReads = new SupplierOrderReads(db, cursors);
  const supplierOrdersOfOrders = { ofOrders: async (ids: string[], showCustomer: boolean) => supplierOrderReads.views(await dispatch.records.ofOrders(ids), showCustomer) };
  connections.connections.addImpactCounter(async (connectionId) => ({ openSupplierOrders: await openSupplierOrderCount(db, connectionId) }));
  const ordersAndDispatch: Domain = { routes: [...supplierOrderRoutes(dispatch.commands, supplierOrderReads, orders), ...storeOrderRoutes(orders, supplierOrdersOfOrders, orderQueries)] };

  // In route-table order: the notification address first, since its path shape would also match /:storeId/:id/... routes.
  const domains: Domain[] = [notifications, identity, stores, connections, catalogue, ordersAndDispatch];
  const { gate, accounts, apiKeys } = identity;
  return { ...p, feed, registry, domains, gate, accounts, apiKeys, stores: stores.stores, connections: connections.connections, dispatch };
}
export type Services = ReturnType<typeof buildServices>;

/** The one route table: routing, validation, permissions, plan gate, credits and OpenAPI all come from it. */
export function routeTable(s: Services): AnyRoute[] {
  return s.domains.flatMap((d) => d.routes);
}

export function buildHttpApp(s: Services) {
  const routes = routeTable(s);
  let doc: unknown;
  const openApiDocument = () => (doc ??= buildOpenApi(routes, { version: VERSION }));
  return buildApp({
    routes,
    gate: s.gate,
    log: s.log,
    jsonBodyLimit: s.config.jsonBodyLimit,
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
