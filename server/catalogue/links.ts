import type { Creator } from '../identity/permissions';
import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Queryable } from '../platform/db';
import { errors } from '../platform/errors';
import { Cursors, keysetList, Page } from '../platform/pagination';
import type { ProductService } from '../stores/products';
import type { StoreProduct } from '../stores/types';
import { normaliseRouting, type RoutingRule, type SupplierConnection, type SupplierGateway } from '../connections';
import type { SupplierProduct } from '../suppliers/adapter';
import { SupplierError } from '../suppliers/errors';
import { DEFAULT_SYNC, LinkAlternate, ProductLink, SyncSwitches } from './types';
import { replaceAlternates } from './alternates';
import { alternatesOfLinks } from './sql/alternates';
import { importRuleFor, normalisePriceRule, PriceRule } from './price-rule';
import { applyOutcomes, DROPPED, pricingFor, syncErrorText } from './apply';
import type { CatalogueRates, CostRate } from './conversion';
import { setSyncResults, storeCurrencyOf } from './sql/link-sync';
import { replaceLinkVariants, variantsOfLinks } from './sql/link-variants';
import * as sql from './sql/links';
import { linkView, type LinkView } from './link-views';
import { mapVariants, type VariantMapping } from './link-variants';

export class LinkService {
  constructor(
    private readonly db: DataSource,
    private readonly cursors: Cursors,
    private readonly gateway: SupplierGateway,
    private readonly products: Pick<ProductService, 'stored' | 'variantsOf' | 'applySupplierChanges'>,
    private readonly rates: CatalogueRates,
  ) {}

  async view(link: ProductLink): Promise<LinkView> {
    return (await this.views([link]))[0];
  }

  async get(storeId: string, id: string, ownKeyId: string | null): Promise<ProductLink> {
    const link = await sql.linkInStore(this.db, storeId, id);
    if (!link || (ownKeyId && link.createdByKeyId !== ownKeyId)) throw errors.notFound('The product link');
    return link;
  }

  /** A page in one statement: the links, their variant mappings and the exact totalCount kept by the database. */
  async list(
    storeId: string,
    ownKeyId: string | null,
    q: { cursor?: string; pageSize: number; connectionId?: string; productId?: string },
  ): Promise<Page<LinkView>> {
    return keysetList<sql.LinkListRow, LinkView>(
      this.db,
      this.cursors,
      q,
      sql.linkList({ storeId, ownKeyId, connectionId: q.connectionId, productId: q.productId }),
      (r) => linkView(sql.linkOf(r), r.variants, r.alternates),
    );
  }

  /** Views of several links with one query for their variants per store (the links are nearly always one store's). */
  async views(links: ProductLink[]): Promise<LinkView[]> {
    const stores = [...new Set(links.map((l) => l.storeId))];
    const found = await Promise.all(
      stores.map((storeId) => {
        const ids = links.filter((l) => l.storeId === storeId).map((l) => l.id);
        return Promise.all([variantsOfLinks(this.db, storeId, ids), alternatesOfLinks(this.db, storeId, ids)]);
      }),
    );
    const variants = found.flatMap(([v]) => v);
    const alternates = found.flatMap(([, a]) => a);
    return links.map((l) =>
      linkView(
        l,
        variants.filter((v) => v.linkId === l.id),
        alternates.filter((a) => a.linkId === l.id),
      ),
    );
  }

  /**
   * Links inside the caller's transaction: every store variant of the product must map to a variant the
   * supplier product really has. Answers the link.
   */
  async createIn(
    tx: Queryable,
    input: {
      storeId: string;
      product: StoreProduct;
      conn: SupplierConnection;
      supplierProduct: SupplierProduct;
      mappings: VariantMapping[];
      priceRule: PriceRule;
      sync: SyncSwitches;
      alternates?: LinkAlternate[];
      routing?: RoutingRule | null;
      costRate?: CostRate | null;
    },
    creator: Creator,
  ): Promise<ProductLink> {
    const mapped = mapVariants(await this.products.variantsOf(input.storeId, input.product.id, tx), input.supplierProduct, input.mappings);
    let link: ProductLink;
    try {
      link = await sql.insertLink(tx, {
        id: crypto.randomUUID(),
        storeId: input.storeId,
        productId: input.product.id,
        connectionId: input.conn.id,
        supplierKey: input.conn.supplierKey,
        supplierProductId: input.supplierProduct.id,
        // The default rule takes the store's currency's ending (none in JPY).
        priceRule: importRuleFor(input.priceRule, await storeCurrencyOf(tx, input.storeId)),
        sync: input.sync,
        costRate: input.costRate ?? null,
        routing: input.routing ? normaliseRouting(input.routing) : null,
        lastSyncAt: new Date(),
        lastSyncError: null,
        ...creator,
      });
    } catch (e) {
      if ((e as { code?: string }).code === '23505') throw errors.conflict('alreadyLinked', 'This store product is already linked to a supplier product.');
      throw e;
    }
    await replaceLinkVariants(tx, link.storeId, link.id, mapped);
    if (input.alternates?.length) await replaceAlternates(tx, link.storeId, link.id, input.alternates);
    return link;
  }

  /** The store variants of the linked product (what alternates may be named for). */
  async storeVariantIds(storeId: string, productId: string): Promise<string[]> {
    return (await this.products.variantsOf(storeId, productId, this.db)).map((v) => v.id);
  }

  async update(
    link: ProductLink,
    changes: {
      variants?: VariantMapping[];
      priceRule?: Partial<PriceRule>;
      sync?: Partial<SyncSwitches>;
      alternates?: LinkAlternate[];
      routing?: RoutingRule | null;
    },
    supplierProduct: () => Promise<SupplierProduct>,
  ): Promise<ProductLink> {
    const priceRule = changes.priceRule ? normalisePriceRule({ ...link.priceRule, ...changes.priceRule }) : undefined;
    const sync = changes.sync ? { ...DEFAULT_SYNC, ...link.sync, ...changes.sync } : undefined;
    const product = changes.variants ? await supplierProduct() : null;
    return this.db.transaction(async (tx) => {
      if (product)
        await replaceLinkVariants(
          tx,
          link.storeId,
          link.id,
          mapVariants(await this.products.variantsOf(link.storeId, link.productId, tx), product, changes.variants!),
        );
      if (changes.alternates) await replaceAlternates(tx, link.storeId, link.id, changes.alternates);
      const routing = changes.routing === undefined ? undefined : changes.routing && normaliseRouting(changes.routing);
      return sql.updateLink(tx, link.storeId, link.id, { priceRule, sync, routing });
    });
  }

  /** A store product in the caller's record scope, for linking. */
  async storeProduct(storeId: string, productId: string, ownKeyId: string | null): Promise<StoreProduct> {
    const product = await this.products.stored(storeId, productId);
    if (!product || (ownKeyId && product.createdByKeyId !== ownKeyId)) throw errors.notFound('The product');
    return product;
  }

  /** `within`: what commits with the link (the credit it spends). */
  create(input: Parameters<LinkService['createIn']>[1], creator: Creator, within?: (tx: Queryable) => Promise<void>): Promise<ProductLink> {
    return this.db.transaction(async (tx) => {
      const link = await this.createIn(tx, input, creator);
      await within?.(tx);
      return link;
    });
  }

  /** Unlinks; the store product stays as the store's own. */
  async remove(link: ProductLink): Promise<void> {
    await sql.deleteLink(this.db, link.storeId, link.id);
  }

  /**
   * Applies what the supplier says now to one link, within its sync switches (server/catalogue/apply.ts: one
   * implementation for the hourly sync, "sync now" and notification read-backs).
   */
  async applySupplierProduct(link: ProductLink, product: SupplierProduct, error?: unknown): Promise<void> {
    const outcomes = [{ linkIds: [link.id], product, error }];
    const pricing = await pricingFor(this.db, this.rates, link.storeId, outcomes);
    await this.db.transaction((tx) => applyOutcomes(tx, this.products, link.storeId, outcomes, pricing));
  }

  /** Links of one store (a connection's). */
  async markSyncFailed(storeId: string, linkIds: string[], err: unknown): Promise<void> {
    if (!linkIds.length) return;
    await setSyncResults(
      this.db,
      storeId,
      linkIds,
      linkIds.map(() => syncErrorText(err)),
    );
  }

  /** Sync one link now, through the connection's gateway (circuit breaker and time-out). */
  async syncOne(link: ProductLink, conn: SupplierConnection): Promise<void> {
    try {
      const product = await this.gateway.call(conn, (a, ctx) => a.getProduct(ctx, link.supplierProductId));
      await this.applySupplierProduct(link, product);
    } catch (err) {
      if (err instanceof SupplierError && err.kind === 'notFound') {
        // The supplier dropped the whole product: every variant goes to stock 0.
        await this.applySupplierProduct(link, DROPPED(link.supplierProductId), err);
        return;
      }
      await this.markSyncFailed(link.storeId, [link.id], err);
      if (!(err instanceof SupplierError)) throw err;
    }
  }

  linksOfConnection(storeId: string, connectionId: string, supplierProductId?: string): Promise<ProductLink[]> {
    return sql.linksOf(this.db, storeId, connectionId, supplierProductId);
  }

  /** Store products already imported from or linked to this supplier product, for duplicate warnings. */
  async duplicatesOf(storeId: string, supplierKey: string, supplierProductIds: string[]): Promise<Map<string, string[]>> {
    const rows = await sql.linkedProducts(this.db, storeId, supplierKey, supplierProductIds);
    const out = new Map<string, string[]>();
    for (const r of rows) out.set(r.supplier_product_id, [...(out.get(r.supplier_product_id) ?? []), r.product_id]);
    return out;
  }
}
