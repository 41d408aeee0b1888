import type { DataSource } from 'typeorm';
import type { Config } from './platform/config';
import { type LookupKeys, Secrets } from './platform/crypto';
import { createDataSource, type DbTimeouts } from './platform/db';
import { type AnyDomainModule, type Domain, domainModule, type InOrder, type LateInOrder, type Platform, type ProvidedBy } from './platform/domain';
import type { Boss } from './platform/jobs';
import type { Logger } from './platform/logger';
import { Cursors } from './platform/pagination';
import { buildApp } from './platform/http/app';
import { Standbys } from './platform/standbys';
import { buildOpenApi, withServer } from './platform/http/openapi';
import type { AnyRoute } from './platform/http/route';
import { inTimestampOrder } from './migrations';
import { identityModule } from './identity';
import { operatorModule } from './operator';
import { ratesModule } from './rates';
import { storesModule } from './stores';
import { eventsModule } from './events';
import { supplierRegistry } from './suppliers';
import { connectionsModule } from './connections';
import { notificationsModule } from './notifications';
import { catalogueModule } from './catalogue';
import { ordersModule } from './orders';
import { paymentsModule } from './payments';
import { dispatchModule } from './dispatch';
import { mountAssistant } from './assistant/mcp';
import { mountConsole } from './console/serve';

export const VERSION = '4.4.0';

/** The suppliers this process can reach: not a domain of its own (no table, no route), but what several are built from. */
const suppliersModule = domainModule({
  name: 'suppliers',
  needs: [],
  provides: ['registry'],
  migrations: [],
  build: (p: Platform) => ({ registry: supplierRegistry(p.config), routes: [] }),
});

/**
 * Every domain, in the order they are built: each is built from the platform and the domains before it that it
 * `needs` (checked by `InOrder` below when this compiles, and by `assemble` when it runs). Queues, migrations, sealed
 * values, the route table and the workers all come from this list.
 */
export const DOMAIN_MODULES = [
  identityModule,
  operatorModule,
  ratesModule,
  storesModule,
  eventsModule,
  suppliersModule,
  connectionsModule,
  catalogueModule,
  ordersModule,
  paymentsModule,
  dispatchModule,
  notificationsModule,
] as const;

// Checked when this compiles (platform/domain.ts): each module needs only what the ones before it provide, and late
// routes (store orders showing their supplier orders, a connection's disconnect) only what the whole list provides.
const inOrder: InOrder<typeof DOMAIN_MODULES> = true;
const lateInOrder: LateInOrder<typeof DOMAIN_MODULES, ProvidedBy<typeof DOMAIN_MODULES>> = true;
void [inOrder, lateInOrder];

type Module = (typeof DOMAIN_MODULES)[number];
type BuiltDomains = { [M in Module as M['name']]: ReturnType<M['build']> };
const MODULES: readonly AnyDomainModule[] = DOMAIN_MODULES;

export const MIGRATIONS = inTimestampOrder(MODULES.flatMap((m) => m.migrations));
export const QUEUES = MODULES.flatMap((m) => m.queues ?? []);
export const SEALED = MODULES.flatMap((m) => m.sealed ?? []);
export const openDatabase = (url: string, poolSize?: number, timeouts?: DbTimeouts): DataSource => createDataSource(url, MIGRATIONS, poolSize, timeouts);

/** What the domains named provide, as `build` takes it. */
function provided(built: Map<string, Domain>, names: readonly string[], by: string): Record<string, unknown> {
  const needs: Record<string, unknown> = {};
  for (const name of names) {
    const done = built.get(name);
    const provides = MODULES.find((x) => x.name === name)?.provides;
    if (!done || !provides) throw new Error(`The domain ${by} needs ${name}, which is not built before it.`);
    needs[name] = Object.fromEntries(provides.map((k) => [k, Reflect.get(done, k)]));
  }
  return needs;
}

/** Builds the domains of the list in order, each handed only what the ones it needs provide. */
function assemble(p: Platform): Map<string, Domain> {
  const built = new Map<string, Domain>();
  for (const m of MODULES) {
    const needs = provided(built, m.needs, m.name);
    // `needs` holds what the modules it names provide, which InOrder proved (when this compiled) is what `build` takes.
    built.set(m.name, m.build(p, needs as never));
  }
  // Then the routes that show what a later domain keeps (LateInOrder proved their needs are provided).
  for (const m of MODULES) {
    if (m.lateRoutes) built.get(m.name)!.routes.push(...m.lateRoutes.build(built.get(m.name) as never, provided(built, m.lateRoutes.needs, m.name) as never));
  }
  for (const d of built.values()) d.assembled?.();
  return built;
}

/** Every domain, built once per process, each from the platform and the domains it needs (`lookup`: the database's, platform/lookup-keys.ts). */
export function buildServices(config: Config, db: DataSource, log: Logger, boss: Boss, databaseUrl: string, lookup?: LookupKeys) {
  const secrets = new Secrets([config.appSecret, ...config.appSecretsPrevious], lookup);
  const p: Platform = {
    config,
    db,
    databaseUrl,
    log,
    boss,
    secrets,
    cursors: new Cursors(secrets),
    standbys: new Standbys(db, config.standbyWaitMs, log, config.databaseReplication),
  };
  const built = assemble(p);
  // Keyed by each module's name, each built by its own module: the types the modules give them.
  const d = Object.fromEntries(built) as unknown as BuiltDomains;
  // In route-table order: the addresses suppliers and payment providers post to first, since their path shapes would also match other routes.
  const domains = [...MODULES.filter((m) => m.routesFirst), ...MODULES.filter((m) => !m.routesFirst)].map((m) => built.get(m.name)!);
  const { identity } = d;
  return {
    ...p,
    domains,
    registry: d.suppliers.registry,
    feed: d.dispatch.feed,
    gate: identity.gate,
    accounts: identity.accounts,
    apiKeys: identity.apiKeys,
    operator: d.operator.operator,
    stores: d.stores.stores,
    connections: d.connections.connections,
    paymentProviders: d.payments.providers,
  };
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
    metricsToken: s.config.metricsToken,
    openApiDocument,
    // Declared without replication: no middleware, nothing looked up per write.
    durable: s.standbys.waits ? s.standbys : undefined,
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
