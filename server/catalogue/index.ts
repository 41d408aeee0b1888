import type { SupplierGateway } from '../connections/gateway';
import type { ConnectionService } from '../connections/service';
import type { CreditService } from '../identity/credits';
import type { MemberAccess } from '../identity/owner-access';
import { READBACK_QUEUES } from '../notifications/queues';
import type { ProductReadBack } from '../notifications/service';
import { domain, type Platform } from '../platform/domain';
import { POLLING } from '../platform/jobs';
import type { ProductService } from '../stores/products';
import { catalogueEventRenderers } from './events';
import { ImportService } from './imports';
import { LinkService } from './links';
import { IMPORT_QUEUE, SYNC_QUEUES } from './queues';
import { catalogueRoutes } from './routes';
import { linkCountOfConnection } from './sql';
import { SupplierProductService } from './supplier-products';
import { CatalogueSync } from './sync';

/** Supplier products, imports, product links and their sync. */
export function catalogueDomain(p: Platform, deps: { gateway: SupplierGateway; connections: ConnectionService; products: ProductService; credits: CreditService; memberAccess: MemberAccess }) {
  const { db, log } = p;
  const links = new LinkService(db, p.cursors, deps.gateway);
  const supplierProducts = new SupplierProductService(deps.gateway, p.secrets);
  const imports = new ImportService(db, deps.gateway, links, deps.products, deps.credits, () => p.boss, p.cursors, deps.memberAccess);
  const catalogueSync = new CatalogueSync(db, deps.gateway, links, () => p.boss, log);
  deps.connections.addImpactCounter(async (connectionId) => ({ linkedProducts: await linkCountOfConnection(db, connectionId) }));
  return domain({
    links, supplierProducts, imports, catalogueSync,
    eventRenderers: catalogueEventRenderers(imports, links),
    routes: catalogueRoutes(deps.connections, supplierProducts, imports, links),
    async work(boss) {
      await boss.work<{ importJobId: string }>(IMPORT_QUEUE, { localConcurrency: 2, ...POLLING }, async ([job]) => {
        await imports.runJob(job.data.importJobId);
      });
      await boss.work(SYNC_QUEUES.all, async () => {
        const n = await catalogueSync.scheduleAll();
        log.info({ connections: n }, 'hourly link sync fanned out');
      });
      await boss.schedule(SYNC_QUEUES.all, p.config.linkSyncCron);
      await boss.work<{ connectionId: string }>(SYNC_QUEUES.connection, { localConcurrency: 2 }, async ([job]) => {
        const result = await catalogueSync.syncConnection(job.data.connectionId);
        log.info({ connectionId: job.data.connectionId, ...result }, 'connection links synced');
      });
      await boss.work<ProductReadBack>(READBACK_QUEUES.product, POLLING, async ([job]) => {
        await catalogueSync.readBackProduct(job.data.connectionId, job.data.supplierProductId);
      });
    },
  });
}
