import type { Creator } from '../identity/permissions';
import crypto from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import type { Cursors, Page } from '../platform/pagination';
import { keysetList } from '../platform/pagination';
import { errors } from '../platform/errors';
import { StoreProduct, StoreVariant } from './entities';
import * as sql from './sql';

export interface VariantInput {
  id?: string;
  sku: string;
  title: string;
  priceMinor: number;
  currency: string;
  stock: number;
}

export interface ProductInput {
  title: string;
  description?: string;
  status?: 'active' | 'draft' | 'archived';
  variants: VariantInput[];
}

export interface ProductView {
  id: string;
  storeId: string;
  title: string;
  description: string;
  status: string;
  variants: Array<{ id: string; sku: string; title: string; priceMinor: number; currency: string; stock: number }>;
  createdByKeyId: string | null;
  createdAt: string;
  updatedAt: string;
}

export function productView(p: StoreProduct, variants: StoreVariant[]): ProductView {
  return {
    id: p.id,
    storeId: p.storeId,
    title: p.title,
    description: p.description,
    status: p.status,
    variants: variants
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
  async createIn(tx: EntityManager, storeId: string, input: ProductInput, creator: Creator): Promise<StoreProduct> {
    const product = tx.getRepository(StoreProduct).create({
      id: crypto.randomUUID(),
      storeId,
      title: input.title,
      description: input.description ?? '',
      status: input.status ?? 'active',
      ...creator,
    });
    await tx.getRepository(StoreProduct).insert(product);
    await tx.getRepository(StoreVariant).insert(
      input.variants.map((v, i) => ({ id: crypto.randomUUID(), productId: product.id, storeId, sku: v.sku, title: v.title, priceMinor: v.priceMinor, currency: v.currency, stock: v.stock, position: i })),
    );
    return product;
  }

  async create(storeId: string, input: ProductInput, creator: Creator): Promise<ProductView> {
    try {
      const product = await this.db.transaction((tx) => this.createIn(tx, storeId, input, creator));
      return this.get(storeId, product.id, null);
    } catch (e) {
      if (duplicateSku(e)) throw errors.conflict('skuTaken', 'A variant of this store already uses one of these SKUs.');
      throw e;
    }
  }

  private async findVisible(storeId: string, id: string, ownKeyId: string | null, tx: EntityManager = this.db.manager): Promise<StoreProduct> {
    const product = await tx.getRepository(StoreProduct).findOneBy({ id, storeId });
    if (!product || (ownKeyId && product.createdByKeyId !== ownKeyId)) throw errors.notFound('The product');
    return product;
  }

  async get(storeId: string, id: string, ownKeyId: string | null): Promise<ProductView> {
    const product = await this.findVisible(storeId, id, ownKeyId);
    const variants = await this.db.getRepository(StoreVariant).findBy({ productId: id });
    return productView(product, variants);
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
      createdAt: r.created_at.toISOString(),
      updatedAt: r.updated_at.toISOString(),
    }));
  }

  /** Replaces the fields given; `variants` replaces the whole set (ids keep existing variants). */
  async update(storeId: string, id: string, ownKeyId: string | null, changes: Partial<ProductInput>): Promise<ProductView> {
    try {
      await this.db.transaction(async (tx) => {
        const product = await this.findVisible(storeId, id, ownKeyId, tx);
        await sql.lockProduct(tx, product.id);
        const fields: Partial<StoreProduct> = {};
        if (changes.title !== undefined) fields.title = changes.title;
        if (changes.description !== undefined) fields.description = changes.description;
        if (changes.status !== undefined) fields.status = changes.status;
        await tx.getRepository(StoreProduct).update({ id }, { ...fields, updatedAt: new Date() });
        if (changes.variants) {
          const existing = await tx.getRepository(StoreVariant).findBy({ productId: id });
          const known = new Set(existing.map((v) => v.id));
          for (const v of changes.variants) {
            if (v.id && !known.has(v.id)) throw errors.validationFailed([{ field: 'body/variants', message: `variant ${v.id} does not belong to this product` }]);
          }
          const keep = new Set(changes.variants.map((v) => v.id).filter(Boolean));
          const removed = existing.filter((v) => !keep.has(v.id)).map((v) => v.id);
          if (removed.length) await tx.getRepository(StoreVariant).delete(removed);
          for (const [i, v] of changes.variants.entries()) {
            const row = { sku: v.sku, title: v.title, priceMinor: v.priceMinor, currency: v.currency, stock: v.stock, position: i };
            if (v.id) await tx.getRepository(StoreVariant).update({ id: v.id }, row);
            else await tx.getRepository(StoreVariant).insert({ id: crypto.randomUUID(), productId: id, storeId, ...row });
          }
        }
      });
    } catch (e) {
      if (duplicateSku(e)) throw errors.conflict('skuTaken', 'A variant of this store already uses one of these SKUs.');
      throw e;
    }
    return this.get(storeId, id, ownKeyId);
  }

  async remove(storeId: string, id: string, ownKeyId: string | null): Promise<void> {
    const product = await this.findVisible(storeId, id, ownKeyId);
    await this.db.getRepository(StoreProduct).delete({ id: product.id });
  }
}
