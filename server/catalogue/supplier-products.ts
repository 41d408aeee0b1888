import { errors } from '../platform/errors';
import type { Secrets } from '../platform/crypto';
import type { SupplierConnection } from '../connections/types';
import type { SupplierGateway } from '../connections/gateway';
import { orSupplierFailure } from '../connections/http-errors';
import type { SupplierProduct } from '../suppliers/adapter';

const unsupportedUrl = () => errors.badRequest('unsupportedUrl', 'This address is not a product page of this supplier.');

/** Browsing, one product, and pasted product links: all through the connection's supplier. */
export class SupplierProductService {
  constructor(
    private readonly gateway: SupplierGateway,
    private readonly secrets: Secrets,
  ) {}

  /** The supplier's own cursor travels inside ours, signed and bound to the connection and query. */
  private wrap(conn: SupplierConnection, query: string, supplierCursor: string): string {
    const payload = Buffer.from(JSON.stringify([conn.id, query, supplierCursor])).toString('base64url');
    return `${payload}.${this.secrets.sign(payload).slice(0, 22)}`;
  }

  private unwrap(conn: SupplierConnection, query: string, cursor: string): string {
    const [payload, sig] = cursor.split('.');
    if (!payload || !sig || !this.secrets.verifySignature(payload, sig, 22)) throw errors.invalidCursor();
    const [connId, q, inner] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as string[];
    if (connId !== conn.id || q !== query) throw errors.invalidCursor();
    return inner;
  }

  async search(conn: SupplierConnection, q: { query?: string; cursor?: string; pageSize: number }) {
    const query = q.query ?? '';
    const inner = q.cursor ? this.unwrap(conn, query, q.cursor) : undefined;
    const page = await orSupplierFailure(
      this.gateway.call(conn, (a, ctx) => a.searchProducts(ctx, { query: query || undefined, cursor: inner, pageSize: q.pageSize })),
    );
    return {
      items: page.items,
      pagination: {
        nextCursor: page.nextCursor ? this.wrap(conn, query, page.nextCursor) : null,
        previousCursor: null,
        hasMore: !!page.nextCursor,
        totalCount: page.total,
        pageSize: q.pageSize,
      },
    };
  }

  /** The product through the gateway, its supplier errors as they are (notFound included). */
  read(conn: SupplierConnection, supplierProductId: string): Promise<SupplierProduct> {
    return this.gateway.call(conn, (a, ctx) => a.getProduct(ctx, supplierProductId));
  }

  get(conn: SupplierConnection, supplierProductId: string): Promise<SupplierProduct> {
    return orSupplierFailure(this.gateway.call(conn, (a, ctx) => a.getProduct(ctx, supplierProductId)));
  }

  /**
   * Never fetches the pasted address: only URLs the supplier's adapter recognises from their text are
   * accepted; the product is then read through the supplier's API, as for any other product.
   */
  async resolveUrl(conn: SupplierConnection, raw: string): Promise<{ supplierProductId: string; product: SupplierProduct }> {
    let url: URL;
    try {
      url = new URL(raw.trim());
    } catch {
      throw unsupportedUrl();
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw unsupportedUrl();
    const id = this.gateway.adapterFor(conn.supplierKey).resolveProductUrl(url);
    if (!id) throw unsupportedUrl();
    const product = await this.get(conn, id);
    return { supplierProductId: id, product };
  }
}
