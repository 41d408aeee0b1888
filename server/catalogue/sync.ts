import type { DataSource } from 'typeorm';
import type { Boss } from '../platform/jobs';
import type { Logger } from '../platform/logger';
import type { ConnectionService, SupplierGateway } from '../connections';
import type { ProductService } from '../stores/products';
import { mapLimit } from '../platform/concurrency';
import { SupplierError } from '../suppliers/errors';
import type { LinkService } from './links';
import { applyOutcomes, DROPPED, pricingFor, ProductOutcome } from './apply';
import type { CatalogueRates } from './conversion';
import { type ConnectionSyncWork, type ProductReadBack, sendConnectionSync } from './queues';
import * as sql from './sql/link-sync';
import { alternateProductsOf, syncAlternates } from './sql/alternates';

const PRODUCT_CONCURRENCY = 8;
/** Supplier products applied per transaction (their links: about ten times as many rows). */
const PRODUCTS_PER_BATCH = 100;

/**
 * The hourly sync: one job per connection with links, so a failing supplier marks its own links and
 * stops nothing else. Links keep syncing whatever became of the key that made them.
 */
export class CatalogueSync {
  constructor(
    private readonly db: DataSource,
    private readonly gateway: SupplierGateway,
    private readonly links: LinkService,
    private readonly connections: Pick<ConnectionService, 'findById'>,
    private readonly products: Pick<ProductService, 'applySupplierChanges'>,
    private readonly boss: () => Boss,
    private readonly log: Logger,
    private readonly rates: CatalogueRates,
  ) {}

  /** Fans out: one sync job per live connection that has links, naming its store. */
  async scheduleAll(): Promise<number> {
    const found = await sql.connectionsWithLinks(this.db);
    for (const c of found) await sendConnectionSync(this.boss(), c);
    return found.length;
  }

  /**
   * Every link of one connection: each supplier product read once, then applied to all its links in
   * set-based statements, one transaction per batch of products. The next batch is read while one is written.
   */
  async syncConnection({ connectionId, storeId }: ConnectionSyncWork): Promise<{ synced: number; failed: number }> {
    const conn = await this.connections.findById(connectionId, storeId);
    const links = await sql.linksOfConnection(this.db, storeId, connectionId);
    const alternates = await alternateProductsOf(this.db, storeId, connectionId);
    if (!links.length && !alternates.length) return { synced: 0, failed: 0 };
    if (!conn || conn.disconnectedAt || !conn.enabled || !conn.credentialsSealed) {
      await this.links.markSyncFailed(
        storeId,
        links.map((l) => l.id),
        new SupplierError('unavailable', 'The connection is switched off or removed.'),
      );
      return { synced: 0, failed: links.length };
    }
    // Alternates on this connection (backups for other connections' links) are read here, like its own links.
    if (alternates.length)
      await this.syncAlternates(
        conn,
        alternates.map((a) => a.supplier_product_id),
      );
    const byProduct = new Map<string, string[]>();
    for (const l of links) byProduct.set(l.supplier_product_id, [...(byProduct.get(l.supplier_product_id) ?? []), l.id]);
    const products = [...byProduct.entries()];
    let synced = 0;
    let failed = 0;
    const read = (batch: Array<[string, string[]]>) =>
      mapLimit(batch, PRODUCT_CONCURRENCY, async ([supplierProductId, linkIds]): Promise<ProductOutcome> => {
        try {
          return { linkIds, product: await this.gateway.call(conn, (a, ctx) => a.getProduct(ctx, supplierProductId)) };
        } catch (err) {
          if (!(err instanceof SupplierError)) this.log.error({ err, connectionId }, 'link sync failed');
          // The supplier dropped the whole product: every variant goes to stock 0, and the links say why.
          return { linkIds, product: err instanceof SupplierError && err.kind === 'notFound' ? DROPPED(supplierProductId) : undefined, error: err };
        }
      });
    const write = async (outcomes: ProductOutcome[]) => {
      const pricing = await pricingFor(this.db, this.rates, storeId, outcomes);
      await this.db.transaction((tx) => applyOutcomes(tx, this.products, storeId, outcomes, pricing));
      for (const o of outcomes) o.error === undefined ? (synced += o.linkIds.length) : (failed += o.linkIds.length);
    };
    let writing: Promise<unknown> = Promise.resolve(null);
    for (let at = 0; at < products.length; at += PRODUCTS_PER_BATCH) {
      const outcomes = await read(products.slice(at, at + PRODUCTS_PER_BATCH));
      const previous = await writing;
      if (previous instanceof Error) throw previous;
      writing = write(outcomes).then(
        () => null,
        (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
      );
    }
    const last = await writing;
    if (last instanceof Error) throw last;
    return { synced, failed };
  }

  /** Each supplier product the alternates on this connection name, read once; a product the supplier dropped leaves them unavailable. */
  private async syncAlternates(conn: NonNullable<Awaited<ReturnType<ConnectionService['findById']>>>, productIds: string[]): Promise<void> {
    const v = {
      product: [] as string[],
      variant: [] as string[],
      cost: [] as Array<number | null>,
      currency: [] as Array<string | null>,
      stock: [] as number[],
      available: [] as boolean[],
    };
    const dropped: string[] = [];
    await mapLimit(productIds, PRODUCT_CONCURRENCY, async (id) => {
      try {
        const product = await this.gateway.call(conn, (a, ctx) => a.getProduct(ctx, id));
        for (const x of product.variants) {
          v.product.push(id);
          v.variant.push(x.id);
          v.cost.push(x.cost.amountMinor);
          v.currency.push(x.cost.currency);
          v.stock.push(x.stock);
          v.available.push(x.available);
        }
      } catch (err) {
        if (err instanceof SupplierError && err.kind === 'notFound') dropped.push(id);
        else this.log.warn({ err, connectionId: conn.id, supplierProductId: id }, 'alternate sync failed');
      }
    });
    await syncAlternates(this.db, conn.storeId, conn.id, v, dropped);
  }

  /** The read-back of a stock or price notification: the same sync code, for the links of one product. */
  async readBackProduct({ connectionId, storeId, supplierProductId }: ProductReadBack): Promise<number> {
    const conn = await this.connections.findById(connectionId, storeId);
    if (!conn || conn.disconnectedAt) return 0;
    const links = await this.links.linksOfConnection(conn.storeId, connectionId, supplierProductId);
    for (const link of links) await this.links.syncOne(link, conn);
    return links.length;
  }
}
