import type { DataSource } from 'typeorm';
import type { Boss } from '../platform/jobs';
import type { Logger } from '../platform/logger';
import { SupplierConnection } from '../connections/entities';
import type { SupplierGateway } from '../connections/gateway';
import { settleLimit } from '../platform/concurrency';
import { SupplierError } from '../suppliers/errors';
import type { LinkService } from './links';

export const SYNC_QUEUES = { all: 'catalog.sync-all', connection: 'catalog.sync-connection' } as const;
const PRODUCT_CONCURRENCY = 8;

/**
 * The hourly sync: one job per connection with links, so a failing supplier marks its own links and
 * stops nothing else. Links keep syncing whatever became of the key that made them.
 */
export class CatalogSync {
  constructor(
    private readonly db: DataSource,
    private readonly gateway: SupplierGateway,
    private readonly links: LinkService,
    private readonly boss: () => Boss,
    private readonly log: Logger,
  ) {}

  /** Fans out: one sync job per live connection that has links. */
  async scheduleAll(): Promise<number> {
    const rows: Array<{ connection_id: string }> = await this.db.query(
      `SELECT DISTINCT l.connection_id FROM product_links l JOIN supplier_connections c ON c.id = l.connection_id
        WHERE c.disconnected_at IS NULL AND c.enabled`,
    );
    for (const r of rows) await this.boss().send(SYNC_QUEUES.connection, { connectionId: r.connection_id }, { singletonKey: r.connection_id });
    return rows.length;
  }

  /** Every link of one connection: each supplier product read once, applied to every link that uses it. */
  async syncConnection(connectionId: string): Promise<{ synced: number; failed: number }> {
    const conn = await this.db.getRepository(SupplierConnection).findOneBy({ id: connectionId });
    const links = await this.links.linksOfConnection(connectionId);
    if (!links.length) return { synced: 0, failed: 0 };
    if (!conn || conn.disconnectedAt || !conn.enabled || !conn.credentialsSealed) {
      await this.links.markSyncFailed(links.map((l) => l.id), new SupplierError('unavailable', 'The connection is switched off or removed.'));
      return { synced: 0, failed: links.length };
    }
    const byProduct = new Map<string, string[]>();
    for (const l of links) byProduct.set(l.supplierProductId, [...(byProduct.get(l.supplierProductId) ?? []), l.id]);
    let synced = 0;
    let failed = 0;
    await settleLimit([...byProduct.entries()], PRODUCT_CONCURRENCY, async ([supplierProductId, linkIds]) => {
      try {
        const product = await this.gateway.call(conn, (a, ctx) => a.getProduct(ctx, supplierProductId));
        for (const id of linkIds) await this.links.applySupplierProduct(id, product);
        synced += linkIds.length;
      } catch (err) {
        if (err instanceof SupplierError && err.kind === 'notFound') {
          for (const id of linkIds) await this.links.applySupplierProduct(id, { id: supplierProductId, title: '', description: '', url: '', imageUrl: null, shipsTo: [], variants: [], updatedAt: null });
        }
        await this.links.markSyncFailed(linkIds, err);
        failed += linkIds.length;
        if (!(err instanceof SupplierError)) this.log.error({ err, connectionId }, 'link sync failed');
      }
    });
    return { synced, failed };
  }

  /** The read-back of a stock or price notification: the same sync code, for the links of one product. */
  async readBackProduct(connectionId: string, supplierProductId: string): Promise<number> {
    const conn = await this.db.getRepository(SupplierConnection).findOneBy({ id: connectionId });
    if (!conn || conn.disconnectedAt) return 0;
    const links = await this.links.linksOfConnection(connectionId, supplierProductId);
    for (const link of links) await this.links.syncOne(link, conn);
    return links.length;
  }
}
