import type { Creator } from '../identity/permissions';
import { Cursors, keysetList, Page } from '../platform/pagination';
import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Queryable } from '../platform/db';
import { errors } from '../platform/errors';
import { failpoint } from '../platform/failpoints';
import type { Boss } from '../platform/jobs';
import type { CreditService } from '../identity/credits';
import type { MemberAccess } from '../identity/owner-access';
import type { CreditTicket } from '../platform/http/route';
import type { ProductService, ProductView } from '../stores/products';
import type { StoreService } from '../stores/stores';
import type { Store } from '../stores/types';
import type { ConnectionService, SupplierConnection, SupplierGateway } from '../connections';
import type { ImportItem, ImportJob, SyncSwitches } from './types';

export type { ImportItem } from './types';
import type { LinkService } from './links';
import type { LinkView } from './link-views';
import { failureOf, ImportFailure } from './import-failures';
import { importAuthorityEnded, importJobSummary, type ImportJobSummary, importJobView } from './import-jobs';
import { previewImport } from './import-preview';
import { FETCH_CONCURRENCY, ProductImporter } from './import-product';
import { importRuleFor, PriceRule } from './price-rule';
import type { CatalogueRates } from './conversion';
import { type ImportWork, sendImport } from './queues';
import * as sql from './sql/imports';

/** Imports up to this many products answer at once; larger ones run as a background job. */
export const IMPORT_INLINE_LIMIT = 50;

export class ImportService {
  constructor(
    private readonly db: DataSource,
    gateway: SupplierGateway,
    private readonly links: LinkService,
    private readonly products: ProductService,
    private readonly stores: Pick<StoreService, 'find'>,
    private readonly connections: Pick<ConnectionService, 'findById'>,
    private readonly credits: CreditService,
    private readonly boss: () => Boss,
    private readonly cursors: Cursors,
    private readonly memberAccess: MemberAccess,
    rates: CatalogueRates,
  ) {
    this.importer = new ProductImporter(db, gateway, links, products, rates);
  }
  private readonly importer: ProductImporter;

  /**
   * The store's import jobs, newest first, paged by cursor, each with its progress. Import jobs are few per store,
   * so the count is the store's rows on their index (no kept count).
   */
  async listJobs(storeId: string, ownKeyId: string | null, q: { cursor?: string; pageSize: number }): Promise<Page<ImportJobSummary>> {
    return keysetList<sql.ImportJobListRow, ImportJobSummary>(this.db, this.cursors, q, sql.importJobList({ storeId, ownKeyId }), importJobSummary);
  }

  private async store(id: string): Promise<Store> {
    const store = await this.stores.find(id);
    if (!store) throw errors.notFound('The store');
    return store;
  }

  /** Prices the chosen products and names duplicates; writes and charges nothing. */
  async preview(storeId: string, conn: SupplierConnection, items: ImportItem[], rule: PriceRule) {
    return previewImport(this.importer, this.links, await this.store(storeId), conn, items, rule);
  }

  /** Up to IMPORT_INLINE_LIMIT products at once (the route has charged for all; it refunds the ones in `errors`). */
  /** `within`: what commits with each product made (the credit it spends). */
  async importNow(
    storeId: string,
    conn: SupplierConnection,
    items: ImportItem[],
    opts: { rule: PriceRule; sync: SyncSwitches; status?: 'active' | 'draft' },
    creator: Creator,
    within?: (tx: Queryable) => Promise<void>,
  ) {
    const store = await this.store(storeId);
    const fetched = await this.importer.fetchAll(conn, items);
    const created: Array<{ productId: string; linkId: string }> = [];
    const failures: ImportFailure[] = [];
    for (const [i, item] of items.entries()) {
      const f = fetched[i];
      try {
        if (!f.ok) throw f.error;
        created.push(
          await this.importer.inTransaction(async (tx) => {
            const made = await this.importer.importOne(tx, { store, conn, product: f.value, item, ...opts }, creator);
            await within?.(tx);
            return made;
          }),
        );
        // Fault drill: killed with some products made and paid for, the rest held (the sweep refunds them).
        failpoint('catalogue.importedOne');
      } catch (err) {
        failures.push(failureOf(item, err, this.importer.supplierName(conn)));
      }
    }
    const products: ProductView[] = [];
    for (const c of created) products.push(await this.products.get(storeId, c.productId, null));
    const links: LinkView[] = await this.links.views(await Promise.all(created.map((c) => this.links.get(storeId, c.linkId, null))));
    return { products, links, errors: failures };
  }

  /** Larger imports: the job and its items are written at once, then a pg-boss job works through them. */
  async startJob(
    storeId: string,
    conn: SupplierConnection,
    items: ImportItem[],
    opts: { rule: PriceRule; sync: SyncSwitches },
    creator: Creator,
    credit: CreditTicket,
  ): Promise<ImportJob> {
    const priceRule = importRuleFor(opts.rule, (await this.store(storeId)).currency);
    const job = await this.db.transaction((tx) =>
      sql.insertImportJob(
        tx,
        {
          id: crypto.randomUUID(),
          storeId,
          connectionId: conn.id,
          priceRule,
          sync: opts.sync,
          total: items.length,
          ...creator,
          credit: { action: credit.action, price: credit.price },
        },
        items.map((item) => ({ supplierProductId: item.supplierProductId, variantIds: item.variantIds ?? null })),
      ),
    );
    await sendImport(this.boss(), { importJobId: job.id, storeId: job.storeId });
    return job;
  }

  /**
   * Works through the pending items. Each item commits with its product, link and charge, so a worker
   * killed half-way resumes (pg-boss retries the job) at the first item still pending, duplicating nothing.
   */
  async runJob({ importJobId, storeId }: ImportWork): Promise<void> {
    const job = await sql.importJobInStore(this.db, storeId, importJobId);
    if (!job || job.status === 'completed' || job.status === 'failed') return;
    await sql.setImportJobStatus(this.db, job, 'running');
    const conn = await this.connections.findById(job.connectionId, job.storeId);
    if (!conn || conn.disconnectedAt || !conn.credentialsSealed) {
      await sql.failPendingItems(this.db, job, 'connectionMissing', 'The connection was removed.');
      await sql.setImportJobStatus(this.db, job, 'failed');
      return;
    }
    const store = await this.store(job.storeId);
    const creator: Creator = { createdByAccountId: job.createdByAccountId, createdByKeyId: job.createdByKeyId };
    for (;;) {
      const batch = await sql.importItems(this.db, job, { pendingOnly: true, limit: FETCH_CONCURRENCY * 2 });
      if (!batch.length) break;
      const ended = await importAuthorityEnded(this.memberAccess, job.storeId, creator);
      if (ended) {
        await sql.failPendingItems(this.db, job, 'importAuthorityEnded', ended);
        await sql.setImportJobStatus(this.db, job, 'failed');
        return;
      }
      const items = batch.map((b) => ({ supplierProductId: b.supplierProductId, variantIds: b.variantIds ?? undefined }));
      const fetched = await this.importer.fetchAll(conn, items);
      for (const [i, row] of batch.entries()) {
        const f = fetched[i];
        try {
          if (!f.ok) throw f.error;
          await this.importer.inTransaction(async (tx) => {
            await this.credits.charge(
              { accountId: creator.createdByAccountId, apiKeyId: creator.createdByKeyId },
              job.credit.action,
              job.credit.price,
              `import:${job.id}:${row.position}`,
              tx,
            );
            const out = await this.importer.importOne(tx, { store, conn, product: f.value, item: items[i], rule: job.priceRule, sync: job.sync }, creator);
            await sql.itemDone(tx, job, row.position, out.productId);
          });
        } catch (err) {
          const failure = failureOf(items[i], err, this.importer.supplierName(conn));
          await sql.itemFailed(this.db, job, row.position, failure.code, failure.message);
        }
      }
    }
    await sql.setImportJobStatus(this.db, job, 'completed');
  }

  async getJob(storeId: string, jobId: string, ownKeyId: string | null) {
    const job = await sql.importJobInStore(this.db, storeId, jobId);
    if (!job || (ownKeyId && job.createdByKeyId !== ownKeyId)) throw errors.notFound('The import job');
    const items = await sql.importItems(this.db, job);
    return importJobView(job, items);
  }
}
