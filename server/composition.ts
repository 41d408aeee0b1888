import type { DataSource } from 'typeorm';
import type { Config } from './platform/config';
import { Secrets } from './platform/crypto';
import { createDataSource } from './platform/db';
import type { Logger } from './platform/logger';
import { Cursors } from './platform/pagination';
import { buildApp } from './platform/http/app';
import { buildOpenApi } from './platform/http/openapi';
import type { RouteDef } from './platform/http/route';
import { AccountService } from './identity/accounts';
import { ApiKeyService } from './identity/api-keys';
import { CreditService } from './identity/credits';
import { Account, ApiKey, CreditLedgerEntry, Session } from './identity/entities';
import { createGate } from './identity/gate';
import { identityRoutes } from './identity/routes';
import { StaffMember, Store, StoreProduct, StoreVariant } from './stores/entities';
import { ProductService } from './stores/products';
import { storeRoutes } from './stores/routes';
import { StoreService } from './stores/stores';
import { mountBenchBaselines } from './bench-baselines';
import { Foundation1763769600000 } from './migrations/1763769600000-Foundation';

export const VERSION = '4.4.0';
export const ENTITIES = [Account, Session, ApiKey, CreditLedgerEntry, Store, StaffMember, StoreProduct, StoreVariant];
export const MIGRATIONS = [Foundation1763769600000];

export function openDatabase(url: string, poolSize?: number): DataSource {
  return createDataSource(url, ENTITIES, MIGRATIONS, poolSize);
}

/** Every service, built once per process from the configuration and the database. */
export function buildServices(config: Config, db: DataSource, log: Logger) {
  const secrets = new Secrets(config.appSecret);
  const cursors = new Cursors(secrets);
  const credits = new CreditService(db);
  const accounts = new AccountService(db, secrets, credits, config.sessionTtlHours);
  const apiKeys = new ApiKeyService(db, secrets, config.keyLastUsedIntervalSeconds);
  const stores = new StoreService(db);
  const products = new ProductService(db, cursors);
  const gate = createGate(db, accounts, apiKeys, credits);
  return { config, db, log, secrets, cursors, credits, accounts, apiKeys, stores, products, gate };
}
export type Services = ReturnType<typeof buildServices>;

/** The one route table: routing, validation, permissions, plan gate, credits and OpenAPI all come from it. */
export function routeTable(s: Services): RouteDef[] {
  return [...identityRoutes(s.accounts, s.apiKeys), ...storeRoutes(s.stores, s.products, s.accounts)];
}

export function buildHttpApp(s: Services) {
  const routes = routeTable(s);
  let doc: unknown;
  const openApiDocument = () =>
    (doc ??= buildOpenApi(routes, { version: VERSION, creditPrice: (a) => s.credits.price(a) }));
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
    bareRoutes: s.config.benchBaselines ? (router) => mountBenchBaselines(router, s) : undefined,
  });
}
