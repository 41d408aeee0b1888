import type { ConnectionService, SupplierGateway } from '../connections';
import type { EventRenderer } from '../events';
import type { CreditService } from '../identity/credits';
import type { MemberAccess } from '../identity/owner-access';
import { Catalog1763942400000 } from '../migrations/1763942400000-Catalog';
import { UnlinkDisconnected1764201600182 } from '../migrations/1764201600182-UnlinkDisconnected';
import { ImportJobCredit1764374400000 } from '../migrations/1764374400000-ImportJobCredit';
import { LinkAlternates1764892800340 } from '../migrations/1764892800340-LinkAlternates';
import { LinkRouting1765324800421 } from '../migrations/1765324800421-LinkRouting';
import { LinkCostRate1765584000540 } from '../migrations/1765584000540-LinkCostRate';
import type { CatalogueRates } from './conversion';
import { domainModule, type Platform } from '../platform/domain';
import { type Boss, POLLING } from '../platform/jobs';
import type { ProductService } from '../stores/products';
import type { StoreService } from '../stores/stores';
import { catalogueEventRenderers } from './events';
import { ImportService } from './imports';
import { LinkService } from './links';
import {
  CATALOGUE_QUEUES,
  type ConnectionSyncWork,
  IMPORT_QUEUE,
  type ImportWork,
  type ProductReadBack,
  productReadBacks,
  READBACK_CONCURRENCY,
  READBACK_QUEUE,
  SYNC_QUEUES,
} from './queues';
import { catalogueRoutes } from './routes';
import { deleteLinksOfConnection, linkCountOfConnection } from './sql/links';
import { SupplierProductService } from './supplier-products';
import { CatalogueSync } from './sync';

interface CatalogueNeeds {
  identity: { credits: CreditService; ownerAccess: MemberAccess };
  stores: { stores: StoreService; products: ProductService };
  connections: { gateway: SupplierGateway; connections: ConnectionService };
  events: { renderers: { register(kind: string, r: EventRenderer): void } };
  rates: { rates: CatalogueRates };
}

/** Supplier products, imports, product links and their sync. */
export const catalogueModule = domainModule({
  name: 'catalogue',
  needs: ['identity', 'stores', 'connections', 'events', 'rates'],
  provides: ['productReadBacks', 'linksOfConnection'],
  queues: CATALOGUE_QUEUES,
  migrations: [
    Catalog1763942400000,
    UnlinkDisconnected1764201600182,
    ImportJobCredit1764374400000,
    LinkAlternates1764892800340,
    LinkRouting1765324800421,
    LinkCostRate1765584000540,
  ],
  build(p: Platform, deps: CatalogueNeeds) {
    const { db, log } = p;
    const { gateway, connections } = deps.connections;
    const products = deps.stores.products;
    const links = new LinkService(db, p.cursors, gateway, products, deps.rates.rates);
    const supplierProducts = new SupplierProductService(gateway, p.secrets);
    const imports = new ImportService(
      db,
      gateway,
      links,
      products,
      deps.stores.stores,
      connections,
      deps.identity.credits,
      () => p.boss,
      p.cursors,
      deps.identity.ownerAccess,
      deps.rates.rates,
    );
    const catalogueSync = new CatalogueSync(db, gateway, links, connections, products, () => p.boss, log, deps.rates.rates);
    for (const [kind, renderer] of Object.entries(catalogueEventRenderers(imports, links))) deps.events.renderers.register(kind, renderer);
    return {
      links,
      supplierProducts,
      imports,
      catalogueSync,
      // What others ask of the catalogue: a notification's read-backs; a connection's links, counted before a disconnect
      // and removed in its transaction (links to a supplier that is gone mean nothing).
      productReadBacks: productReadBacks(() => p.boss, db),
      linksOfConnection: {
        count: (connectionId: string, storeId: string) => linkCountOfConnection(db, connectionId, storeId),
        remove: deleteLinksOfConnection,
      },
      routes: catalogueRoutes(connections, supplierProducts, imports, links),
      async work(boss: Boss) {
        // Stores take turns: one import of a store runs at a time across processes, so a store that queued many
        // does not hold every other store's behind them.
        await boss.work<ImportWork>(IMPORT_QUEUE, { localConcurrency: 2, groupConcurrency: 1, ...POLLING }, async ([job]) => {
          await imports.runJob(job.data);
        });
        await boss.work(SYNC_QUEUES.all, async () => {
          const n = await catalogueSync.scheduleAll();
          log.info({ connections: n }, 'hourly link sync fanned out');
        });
        await boss.schedule(SYNC_QUEUES.all, p.config.linkSyncCron);
        await boss.work<ConnectionSyncWork>(SYNC_QUEUES.connection, { localConcurrency: 2 }, async ([job]) => {
          const result = await catalogueSync.syncConnection(job.data);
          log.info({ connectionId: job.data.connectionId, ...result }, 'connection links synced');
        });
        await boss.work<ProductReadBack>(READBACK_QUEUE, { ...POLLING, localConcurrency: READBACK_CONCURRENCY }, async ([job]) => {
          await catalogueSync.readBackProduct(job.data);
        });
      },
    };
  },
});
