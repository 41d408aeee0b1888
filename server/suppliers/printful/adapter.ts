/**
 * The Printful adapter, over Printful's API v1 (docs/suppliers/printful.md): requests by client.ts, orders in
 * orders.ts, answers read by readers.ts. Every failure leaves as a SupplierError whose message carries no token.
 */
import { createHash } from 'node:crypto';
import { catalogueEntry } from '../adapter';
import type {
  CallLimits,
  CatalogueEntry,
  HealthResult,
  Money,
  ProductSearchPage,
  SupplierAdapter,
  SupplierCallContext,
  SupplierOrderSnapshot,
  SupplierProduct,
  VerifiedAccount,
  VerifiedNotification,
} from '../adapter';
import { SupplierError } from '../errors';
import { lendClient, type LentOrderCalls } from '../order-calls';
import { healthFrom } from '../health';
import { asObj, optionalText, text } from '../http';
import { pageOfCursor, pageSizeWithin } from '../paging';
import { PrintfulClient } from './client';
import { PRINTFUL_DESCRIPTION } from './description';
import { readWebhook, registerWebhook } from './notifications';
import { cancelOrder, createOrder, findOrderByNumber, getOrder, payOrder, quoteShipping } from './orders';
import { catalogueProductOf, CatalogueVariant, list, productIdFromUrl, productUrl, readCatalogueVariants, readProduct, WORLD } from './readers';

/** Printful: 120 calls a minute, one every 500 ms at a steady pace; a little margin for clocks. */
export const PRINTFUL_CALL_SPACING_MS = 510;
const MAX_PAGE = 1000;
const MAX_PAGE_SIZE = 100;

export interface PrintfulAdapterOptions {
  baseUrl: string;
}

const digest = (value: string) => createHash('sha256').update(value).digest('hex');

export class PrintfulAdapter implements SupplierAdapter {
  readonly entry: CatalogueEntry = PRINTFUL_ENTRY;
  readonly limits: CallLimits = {
    callsInFlight: 2,
    callSpacingMs: () => PRINTFUL_CALL_SPACING_MS,
    // Printful counts calls per token: every connection (and the connect-time checks) on one token shares the rate.
    rateKey: (credentials) => (typeof credentials.apiKey === 'string' && credentials.apiKey ? `printful:${digest(credentials.apiKey).slice(0, 32)}` : null),
  };
  private readonly client: PrintfulClient;
  readonly findOrderByNumber: LentOrderCalls['findOrderByNumber'];
  readonly quoteShipping: LentOrderCalls['quoteShipping'];
  readonly createOrder: LentOrderCalls['createOrder'];

  constructor(opts: PrintfulAdapterOptions) {
    this.client = new PrintfulClient(opts.baseUrl);
    ({
      findOrderByNumber: this.findOrderByNumber,
      quoteShipping: this.quoteShipping,
      createOrder: this.createOrder,
    } = lendClient(this.client, { findOrderByNumber, quoteShipping, createOrder }));
  }

  // ---- account

  async verifyCredentials(ctx: SupplierCallContext): Promise<VerifiedAccount> {
    const answer = await this.client.request(ctx, { method: 'GET', path: '/store' }, 'other');
    const { id, name } = this.client.read(answer, (r) => {
      const o = asObj(r, 'store');
      return { id: text(o, 'id', 'store'), name: optionalText(o, 'name') };
    });
    return { accountLabel: `Printful store ${name ? `"${name}" ` : ''}(${id})`, accountId: `printful:store:${id}` };
  }

  healthCheck(ctx: SupplierCallContext): Promise<HealthResult> {
    return healthFrom(() => this.verifyCredentials(ctx), 'Unexpected error while checking Printful');
  }

  async getBalance(): Promise<Money> {
    throw new SupplierError('notSupported', 'Printful reports no balance: confirming an order charges the billing method on file at Printful');
  }

  // ---- products: the store's own products (sync products), priced by the catalogue variants they are made from

  async searchProducts(ctx: SupplierCallContext, q: { query?: string; cursor?: string; pageSize: number }): Promise<ProductSearchPage> {
    const page = pageOfCursor(q.cursor, MAX_PAGE);
    const limit = pageSizeWithin(q.pageSize, MAX_PAGE_SIZE);
    const offset = (page - 1) * limit;
    const query = { offset: String(offset), limit: String(limit), search: q.query?.trim() || undefined };
    const answer = await this.client.request(ctx, { method: 'GET', path: '/store/products', query }, 'other');
    return this.client.read(answer, (r, a) => {
      const items = list(r, 'products').map((raw, i): SupplierProduct => {
        const o = asObj(raw, `products[${i}]`);
        const id = text(o, 'id', `products[${i}]`);
        // The list carries no variants: costs and availability come with the product itself.
        return {
          id,
          title: optionalText(o, 'name') ?? id,
          description: '',
          url: productUrl(id),
          imageUrl: optionalText(o, 'thumbnail_url'),
          shipsTo: WORLD,
          variants: [],
          updatedAt: null,
        };
      });
      const total = typeof a.paging?.total === 'number' && Number.isSafeInteger(a.paging.total) ? a.paging.total : null;
      const more = total !== null ? offset + items.length < total : items.length === limit;
      return { items, nextCursor: more && items.length && page < MAX_PAGE ? String(page + 1) : null, total };
    });
  }

  async getProduct(ctx: SupplierCallContext, supplierProductId: string): Promise<SupplierProduct> {
    const subject = { productId: supplierProductId };
    if (!/^\d{1,15}$/.test(supplierProductId)) throw new SupplierError('notFound', 'Not a Printful product id', subject);
    const answer = await this.client.request(ctx, { method: 'GET', path: `/store/products/${supplierProductId}` }, 'product', subject);
    const variants = this.client.read(answer, (r) =>
      list(asObj(r, 'product').sync_variants ?? [], 'product.sync_variants').map((v, i) => asObj(v, `product.sync_variants[${i}]`)),
    );
    const catalogue = new Map<string, CatalogueVariant>();
    const products = new Set(variants.map(catalogueProductOf).filter((p): p is string => p !== null && /^\d{1,15}$/.test(p)));
    for (const pid of products) {
      const made = await this.client.request(ctx, { method: 'GET', path: `/products/${pid}` }, 'other');
      for (const [vid, v] of this.client.read(made, readCatalogueVariants)) catalogue.set(vid, v);
    }
    return this.client.read(answer, (r) => readProduct(r, catalogue));
  }

  resolveProductUrl(url: URL): string | null {
    return productIdFromUrl(url);
  }

  // ---- notifications (notifications.ts): v1 webhooks, one address per store, unsigned

  registerNotificationAddress(ctx: SupplierCallContext, url: string): Promise<Record<string, string>> {
    return registerWebhook(this.client, ctx, url);
  }

  verifyNotification(
    ctx: SupplierCallContext,
    input: { rawBody: string; headers: Record<string, string | undefined>; now: Date },
  ): VerifiedNotification | null {
    return readWebhook(ctx, input);
  }

  // ---- orders

  getOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
    return getOrder(this.client, ctx, supplierOrderId);
  }

  payOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
    return payOrder(this.client, ctx, supplierOrderId);
  }

  cancelOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
    return cancelOrder(this.client, ctx, supplierOrderId);
  }
}

export const PRINTFUL_ENTRY: CatalogueEntry = catalogueEntry(PRINTFUL_DESCRIPTION, PrintfulAdapter.prototype as { registerNotificationAddress?: unknown });

export function createPrintfulAdapter(opts: PrintfulAdapterOptions): PrintfulAdapter {
  return new PrintfulAdapter(opts);
}
