import type { Creator } from '../identity/permissions';
import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Queryable } from '../platform/db';
import type { Cursors, Page } from '../platform/pagination';
import { keysetList } from '../platform/pagination';
import { errors } from '../platform/errors';
import type { ProductView, StoreProduct, StoreVariant } from './types';

export type { ProductView } from './types';
import * as sql from './sql/products';

interface VariantInput {
  id?: string;
  sku: string;
  title: string;
  priceMinor: number;
  currency: string;
  stock: number;
}

interface ProductInput {
  title: string;
  description?: string;
  status?: 'active' | 'draft' | 'archived';
  variants: VariantInput[];
}

function productView(p: StoreProduct, variants: StoreVariant[]): ProductView {
  return {
    id: p.id,
    storeId: p.storeId,
    title: p.title,
    description: p.description,
    status: p.status,
    variants: [...variants]
      .sort((a, b) => a.position - b.position)
      .map((v) => ({ id: v.id, sku: v.sku, title: v.title, priceMinor: v.priceMinor, currency: v.currency, stock: v.stock })),
    createdByKeyId: p.createdByKeyId,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

function duplicateSku(e: unknown): boolean {
  return (e as { code?: string; constraint?: string }).code === '23505' && (e as { constraint?: string }).constraint === 'store_variants_sku_key';
}

/** Store products with variants. `ownKeyId` (record scope) restricts every read and write. */
export class ProductService {
  constructor(
    private readonly db: DataSource,
    private readonly cursors: Cursors,
  ) {}

  /** Inside a caller's transaction, so importers can create a product atomically with their own rows. */
  async createIn(tx: Queryable, storeId: string, input: ProductInput, creator: Creator): Promise<StoreProduct> {
    const product = await sql.insertProduct(tx, {
      id: crypto.randomUUID(),
      storeId,
      title: input.title,
      description: input.description ?? '',
      status: input.status ?? 'active',
      ...creator,
    });
    await sql.insertVariants(
      tx,
      input.variants.map((v, i) => ({
        id: crypto.randomUUID(),
        productId: product.id,
        storeId,
        sku: v.sku,
        title: v.title,
        priceMinor: v.priceMinor,
        currency: v.currency,
        stock: v.stock,
        position: i,
      })),
    );
    return product;
  }

  /** `within`: what commits with the product (the credit it spends). */
  async create(storeId: string, input: ProductInput, creator: Creator, within?: (tx: Queryable) => Promise<void>): Promise<ProductView> {
    try {
      const product = await this.db.transaction(async (tx) => {
        const made = await this.createIn(tx, storeId, input, creator);
        await within?.(tx);
        return made;
      });
      return this.get(storeId, product.id, null);
    } catch (e) {
      if (duplicateSku(e)) throw errors.conflict('skuTaken', 'A variant of this store already uses one of these SKUs.');
      throw e;
    }
  }

  private async findVisible(storeId: string, id: string, ownKeyId: string | null, db: Queryable = this.db): Promise<StoreProduct> {
    const product = await sql.productInStore(db, storeId, id);
    if (!product || (ownKeyId && product.createdByKeyId !== ownKeyId)) throw errors.notFound('The product');
    return product;
  }

  async get(storeId: string, id: string, ownKeyId: string | null): Promise<ProductView> {
    const product = await this.findVisible(storeId, id, ownKeyId);
    return productView(product, await sql.variantsOfProduct(this.db, storeId, id));
  }

  /** A page in one statement: the products, their variants and the exact totalCount kept by the database. */
  async list(storeId: string, ownKeyId: string | null, q: { cursor?: string; pageSize: number; status?: string }): Promise<Page<ProductView>> {
    return keysetList<sql.ProductListRow, ProductView>(this.db, this.cursors, q, sql.productList({ storeId, ownKeyId, status: q.status }), (r) => ({
      id: r.id,
      storeId: r.store_id,
      title: r.title,
      description: r.description,
      status: r.status,
      variants: r.variants,
      createdByKeyId: r.created_by_key_id,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    }));
  }

  /** Replaces the fields given; `variants` replaces the whole set (ids keep existing variants). */
  async update(storeId: string, id: string, ownKeyId: string | null, changes: Partial<ProductInput>): Promise<ProductView> {
    try {
      await this.db.transaction(async (tx) => {
        const product = await this.findVisible(storeId, id, ownKeyId, tx);
        await sql.lockProduct(tx, storeId, product.id);
        await sql.updateProduct(tx, storeId, id, { title: changes.title, description: changes.description, status: changes.status });
        if (changes.variants) {
          const existing = await sql.variantsOfProduct(tx, storeId, id);
          const known = new Set(existing.map((v) => v.id));
          for (const v of changes.variants) {
            if (v.id && !known.has(v.id))
              throw errors.validationFailed([{ field: 'body/variants', message: `variant ${v.id} does not belong to this product` }]);
          }
          const keep = new Set(changes.variants.map((v) => v.id).filter(Boolean));
          const removed = existing.filter((v) => !keep.has(v.id)).map((v) => v.id);
          if (removed.length) await sql.deleteVariants(tx, storeId, removed);
          for (const [i, v] of changes.variants.entries()) {
            const row = { sku: v.sku, title: v.title, priceMinor: v.priceMinor, currency: v.currency, stock: v.stock, position: i };
            if (v.id) await sql.updateVariant(tx, storeId, v.id, row);
            else await sql.insertVariants(tx, [{ id: crypto.randomUUID(), productId: id, storeId, ...row }]);
          }
        }
      });
    } catch (e) {
      if (duplicateSku(e)) throw errors.conflict('skuTaken', 'A variant of this store already uses one of these SKUs.');
      throw e;
    }
    return this.get(storeId, id, ownKeyId);
  }

  /** A product of the store as stored, in any record scope (the catalogue links it), or null. */
  stored(storeId: string, id: string): Promise<StoreProduct | null> {
    return sql.productInStore(this.db, storeId, id);
  }

  /** A product's variants, inside the caller's transaction when given one. */
  variantsOf(storeId: string, productId: string, db: Queryable = this.db): Promise<StoreVariant[]> {
    return sql.variantsOfProduct(db, storeId, productId);
  }

  /** These variants of the store (others' or unknown ids are left out), as an order line needs them. */
  variantsInStore(db: Queryable, storeId: string, ids: string[]) {
    return sql.variantsInStore(db, storeId, ids);
  }

  /**
   * What the supplier says now, applied inside the caller's transaction (the catalogue's link sync): variants' stock
   * and price (a null keeps the variant's own), and products' titles, all of the one store.
   */
  async applySupplierChanges(
    tx: Queryable,
    storeId: string,
    variants: { id: string[]; stock: Array<number | null>; price: Array<number | null> },
    titles: { product: string[]; title: string[] },
  ): Promise<void> {
    if (variants.id.length) await sql.updateStoreVariants(tx, storeId, variants);
    if (titles.product.length) await sql.updateProductTitles(tx, storeId, titles);
  }

  async remove(storeId: string, id: string, ownKeyId: string | null): Promise<void> {
    const product = await this.findVisible(storeId, id, ownKeyId);
    await sql.deleteProduct(this.db, storeId, product.id);
  }
}
