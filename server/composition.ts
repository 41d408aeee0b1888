import type { DataSource } from 'typeorm';
import type { Config } from './platform/config';
import { Secrets } from './platform/crypto';
import { createDataSource } from './platform/db';
import type { Boss } from './platform/jobs';
import type { Logger } from './platform/logger';
import { Cursors } from './platform/pagination';
import { buildApp } from './platform/http/app';
import { buildOpenApi, withServer } from './platform/http/openapi';
import type { AnyRoute } from './platform/http/route';
import { AccountService } from './identity/accounts';
import { ApiKeyService } from './identity/api-keys';
import { CreditService } from './identity/credits';
import { Account, ApiKey, CreditLedgerEntry, Session } from './identity/entities';
import { createGate } from './identity/gate';
import { identityRoutes } from './identity/routes';
import { OperatorService } from './operator/service';
import { operatorRoutes } from './operator/routes';
import { StaffMember, Store, StoreProduct, StoreVariant } from './stores/entities';
import { ProductService } from './stores/products';
import { storeRoutes } from './stores/routes';
import { StoreService } from './stores/stores';
import { CircuitBreaker } from './connections/circuit-breaker';
import { SupplierConnection } from './connections/entities';
import { SupplierGateway } from './connections/gateway';
import { connectionRoutes } from './connections/routes';
import { ConnectionService } from './connections/service';
import { SignInService } from './connections/sign-in';
import { CredentialRenewal } from './connections/credential-renewal';
import { SupplierRegistry } from './suppliers/registry';
import { createSandboxAdapters } from './suppliers/sandbox/adapter';
import { createCjAdapter } from './suppliers/cj/adapter';
import { createAliExpressAdapter } from './suppliers/aliexpress/adapter';
import { NotificationService } from './notifications/service';
import { notificationRoutes } from './notifications/routes';
import { ImportJob, ImportJobItem, ProductLink, ProductLinkVariant } from './catalogue/entities';
import { ImportService } from './catalogue/imports';
import { LinkService } from './catalogue/links';
import { catalogueRoutes } from './catalogue/routes';
import { SupplierProductService } from './catalogue/supplier-products';
import { CatalogueSync } from './catalogue/sync';
import { linkCountOfConnection } from './catalogue/sql';
import { OrderService } from './orders/service';
import { OrderPayments } from './orders/payments';
import { PaymentProviders } from './payments/providers';
import { PaymentNotifications } from './payments/service';
import { paymentRoutes } from './payments/routes';
import { StoreOrderQueries } from './orders/queries';
import { storeOrderRoutes } from './orders/routes';
import { createDispatch } from './dispatch';
import { openSupplierOrderCount } from './dispatch/sql';
import { ListenFeed } from './platform/listen';
import { CHANGE_CHANNEL } from './dispatch/records';
import { WORK_CHANNEL } from './dispatch/queues';
import { SupplierCallRates } from './connections/call-rate';
import { sendInTransaction } from './platform/jobs';
import { STORE_ORDER_EVENTS_QUEUE } from './orders/queues';
import type { PublishStoreOrderEvent } from './orders/events';
import { supplierOrderRoutes } from './dispatch/routes';
import { SupplierOrderReads } from './dispatch/views';
import { supplierOrderSchema } from './dispatch/schemas';
import { mountAssistant } from './assistant/mcp';
import { DispatchSteps1764288000000 } from './migrations/1764288000000-DispatchSteps';
import { SupplierOrderCountSlots1764460800260 } from './migrations/1764460800260-SupplierOrderCountSlots';
import { StoreOrderCountSlots1764460800261 } from './migrations/1764460800261-StoreOrderCountSlots';
import { PartNeedsAttention1764288000001 } from './migrations/1764288000001-PartNeedsAttention';
import { StoreOrderFromParts1764288000002 } from './migrations/1764288000002-StoreOrderFromParts';
import { SupplierCallRates1764288000003 } from './migrations/1764288000003-SupplierCallRates';
import { mountConsole } from './console/serve';
import { Foundation1763769600000 } from './migrations/1763769600000-Foundation';
import { SupplierConnections1763856000000 } from './migrations/1763856000000-SupplierConnections';
import { Catalog1763942400000 } from './migrations/1763942400000-Catalog';
import { Orders1764028800000 } from './migrations/1764028800000-Orders';
import { RegisteredNotificationAddress1764115200000 } from './migrations/1764115200000-RegisteredNotificationAddress';
import { SupplierAccountKey1764201600180 } from './migrations/1764201600180-SupplierAccountKey';
import { ReadBackAskedAt1764201600181 } from './migrations/1764201600181-ReadBackAskedAt';
import { UnlinkDisconnected1764201600182 } from './migrations/1764201600182-UnlinkDisconnected';
import { ListCounts1764288000010 } from './migrations/1764288000010-ListCounts';
import { ImportJobCredit1764374400000 } from './migrations/1764374400000-ImportJobCredit';
import { RenameRegisteredWebhookUrl1764374400001 } from './migrations/1764374400001-RenameRegisteredWebhookUrl';
import { CreditLedgerReason1764460800100 } from './migrations/1764460800100-CreditLedgerReason';
import { PaymentProviders1764460800110 } from './migrations/1764460800110-PaymentProviders';
import { PaymentEventSource1764460800111 } from './migrations/1764460800111-PaymentEventSource';
import { OrderMarkedPaid1764460800112 } from './migrations/1764460800112-OrderMarkedPaid';
import { SupplierOrderNumbers1764460800250 } from './migrations/1764460800250-SupplierOrderNumbers';
import { AutomationShippingMethod1764460800251 } from './migrations/1764460800251-AutomationShippingMethod';
import { PaymentProviderCheckout1764460800270 } from './migrations/1764460800270-PaymentProviderCheckout';

export const VERSION = '4.4.0';
export const ENTITIES = [Account, Session, ApiKey, CreditLedgerEntry, Store, StaffMember, StoreProduct, StoreVariant, SupplierConnection, ProductLink, ProductLinkVariant, ImportJob, ImportJobItem];
export const MIGRATIONS = [Foundation1763769600000, SupplierConnections1763856000000, Catalog1763942400000, Orders1764028800000, RegisteredNotificationAddress1764115200000, SupplierAccountKey1764201600180, ReadBackAskedAt1764201600181, UnlinkDisconnected1764201600182, DispatchSteps1764288000000, PartNeedsAttention1764288000001, StoreOrderFromParts1764288000002, SupplierCallRates1764288000003, ListCounts1764288000010, ImportJobCredit1764374400000, RenameRegisteredWebhookUrl1764374400001, CreditLedgerReason1764460800100, PaymentProviders1764460800110, PaymentEventSource1764460800111, OrderMarkedPaid1764460800112, SupplierOrderNumbers1764460800250, AutomationShippingMethod1764460800251, SupplierOrderCountSlots1764460800260, StoreOrderCountSlots1764460800261, PaymentProviderCheckout1764460800270];

export function openDatabase(url: string, poolSize?: number): DataSource {
  return createDataSource(url, ENTITIES, MIGRATIONS, poolSize);
}

/** Every service, built once per process from the configuration, the database and the job queue. */
export function buildServices(config: Config, db: DataSource, log: Logger, boss: Boss, databaseUrl: string) {
  const secrets = new Secrets(config.appSecret);
  const cursors = new Cursors(secrets);
  const credits = new CreditService(db);
  const accounts = new AccountService(db, secrets, credits, config.sessionTtlHours);
  const apiKeys = new ApiKeyService(db, secrets, config.keyLastUsedIntervalSeconds);
  const stores = new StoreService(db);
  const products = new ProductService(db, cursors);
  const gate = createGate(db, accounts, apiKeys, credits);
  const operator = new OperatorService(accounts, log);

  const registry = new SupplierRegistry(
    [
      ...(config.sandboxSupplierUrl ? createSandboxAdapters({ baseUrl: config.sandboxSupplierUrl, limits: { callsInFlight: config.sandboxSupplierCallsInFlight, requestsPerSecond: config.sandboxSupplierRequestsPerSecond } }) : []),
      createCjAdapter({ baseUrl: config.cjApiBaseUrl }),
      // Without the operator's app nothing can be signed: AliExpress is then not in the catalogue at all.
      ...(config.aliExpress ? [createAliExpressAdapter({ app: { appKey: config.aliExpress.appKey, appSecret: config.aliExpress.appSecret, baseUrl: config.aliExpress.apiBaseUrl } })] : []),
    ],
    new Set(config.disabledSuppliers),
  );
  const breaker = new CircuitBreaker(db, { failureThreshold: config.circuitFailureThreshold, cooldownSeconds: config.circuitCooldownSeconds });
  const gateway = new SupplierGateway(registry, secrets, breaker, config.supplierTimeoutMs, db, new SupplierCallRates(db));
  const feed = new ListenFeed(databaseUrl, [CHANGE_CHANNEL, WORK_CHANNEL], log);
  const connections = new ConnectionService(db, registry, gateway, breaker, () => config.publicBaseUrl);
  const signIn = new SignInService(db, secrets, registry, gateway, connections);
  const credentialRenewal = new CredentialRenewal(db, registry, gateway, log);
  const notifications = new NotificationService(db, registry, gateway, () => boss);
  const links = new LinkService(db, cursors, gateway);
  const supplierProducts = new SupplierProductService(gateway, secrets);
  const imports = new ImportService(db, gateway, links, products, credits, () => boss, cursors);
  const catalogueSync = new CatalogueSync(db, gateway, links, () => boss, log);
  connections.addImpactCounter(async (connectionId) => ({
    linkedProducts: await linkCountOfConnection(db, connectionId),
  }));
  const publishOrderEvent: PublishStoreOrderEvent = (tx, event) => sendInTransaction(boss, tx, STORE_ORDER_EVENTS_QUEUE, event);
  const orders = new OrderService(db, publishOrderEvent);
  const orderPayments = new OrderPayments(db, orders, publishOrderEvent);
  const paymentProviders = new PaymentProviders(db, secrets);
  const paymentNotifications = new PaymentNotifications(paymentProviders, orders, orderPayments, log);
  const dispatch = createDispatch({
    db, gateway, registry, orders, boss: () => boss, feed, log,
    config: { retryLimit: config.dispatchRetryLimit, retryBaseSeconds: config.dispatchRetryBaseSeconds, waitMs: config.dispatchWaitMs, sweepIntervalMs: config.dispatchSweepSeconds * 1000, sweepStaleSeconds: config.dispatchSweepStaleSeconds },
  });
  const orderQueries = new StoreOrderQueries(db, cursors);
  const supplierOrderReads = new SupplierOrderReads(db, cursors);
  const supplierOrdersOfOrders = { schema: supplierOrderSchema, ofOrders: (ids: string[], showCustomer: boolean) => supplierOrderReads.ofOrders(ids, showCustomer) };
  connections.addImpactCounter(async (connectionId) => ({
    openSupplierOrders: await openSupplierOrderCount(db, connectionId),
  }));
  return { config, db, log, boss, feed, supplierOrdersOfOrders, orderQueries, secrets, cursors, credits, accounts, operator, apiKeys, stores, products, gate, registry, breaker, gateway, connections, signIn, credentialRenewal, notifications, links, supplierProducts, imports, catalogueSync, orders, orderPayments, paymentProviders, paymentNotifications, dispatch, supplierOrderReads };
}
export type Services = ReturnType<typeof buildServices>;

/** The one route table: routing, validation, permissions, plan gate, credits and OpenAPI all come from it. */
export function routeTable(s: Services): AnyRoute[] {
  return [
    // The notification address first: its path shape would otherwise also match /:storeId/:id/... routes.
    ...notificationRoutes(s.notifications),
    ...paymentRoutes(s.paymentProviders, s.paymentNotifications, () => s.config.publicBaseUrl),
    ...identityRoutes(s.accounts, s.apiKeys, () => s.config.publicBaseUrl),
    ...operatorRoutes(s.operator),
    ...storeRoutes(s.stores, s.products, s.accounts),
    ...connectionRoutes(s.connections, s.signIn, s.registry),
    ...catalogueRoutes(s.connections, s.supplierProducts, s.imports, s.links),
    ...supplierOrderRoutes(s.dispatch.commands, s.supplierOrderReads, s.orders),
    ...storeOrderRoutes(s.orders, s.orderPayments, s.supplierOrdersOfOrders, s.orderQueries),
  ];
}

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
