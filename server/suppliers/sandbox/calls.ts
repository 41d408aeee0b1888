// The supplier calls both sandbox entries make (./adapter.ts): catalogue, shipping, orders, claims, notifications.

import type {
  CallLimits,
  CatalogueEntry,
  ClaimInput,
  ClaimLine,
  HealthResult,
  Money,
  ProductSearchPage,
  ShippingQuote,
  SupplierAdapter,
  SupplierCallContext,
  SupplierOrderInput,
  SupplierOrderSnapshot,
  SupplierProduct,
  VerifiedAccount,
  VerifiedNotification,
} from '../adapter';
import { SupplierError } from '../errors';
import { healthFrom } from '../health';
import { asObj, secretsOf, ShapeError } from '../http';
import { pageOfCursor, pageSizeWithin } from '../paging';
import { Answer, Call, okBody, SandboxHttp, segment } from './http';
import { int, list, readAccount, readOrder, readProduct, str, TOKEN_SHAPE } from './readers';
import { sandboxClaims } from './claims';
import { readNotification } from './signature';

const PRODUCT_HOST = 'shop.sandbox-supplier.test';
const PRODUCT_PATH = /^\/p\/(SBX-P\d+)\/?$/;
const MAX_PAGE_SIZE = 100;
/** The sandbox names no last page; nine digits bound the cursor. */
const MAX_PAGE = 999_999_999;

export abstract class SandboxAdapterBase implements SupplierAdapter {
  abstract readonly entry: CatalogueEntry;
  limits: CallLimits = { callsInFlight: 20, callSpacingMs: () => null };
  /** The credential field that carries the bearer token. */
  protected abstract readonly tokenField: string;

  constructor(protected readonly http: SandboxHttp) {}

  abstract verifyCredentials(ctx: SupplierCallContext): Promise<VerifiedAccount>;

  protected token(ctx: SupplierCallContext): string {
    const token = ctx.credentials[this.tokenField];
    // Checked here so a bad value never reaches a header (or a message).
    if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) {
      throw new SupplierError('credentialsRejected', `The connection has no usable ${this.tokenField}`);
    }
    return token;
  }

  protected async send(ctx: SupplierCallContext, call: Omit<Call, 'token' | 'timeoutMs' | 'secrets'>): Promise<Answer> {
    await ctx.pace?.();
    return this.http.send({ ...call, token: this.token(ctx), timeoutMs: ctx.timeoutMs, secrets: secretsOf(ctx.credentials) });
  }

  protected async account(ctx: SupplierCallContext): Promise<ReturnType<typeof readAccount>> {
    return okBody(await this.send(ctx, { method: 'GET', path: '/v1/account' }), readAccount);
  }

  healthCheck(ctx: SupplierCallContext): Promise<HealthResult> {
    return healthFrom(() => this.verifyCredentials(ctx), 'Unexpected error while checking the sandbox supplier');
  }

  async getBalance(ctx: SupplierCallContext): Promise<Money> {
    const account = await this.account(ctx);
    return { amountMinor: account.balanceMinor, currency: account.currency };
  }

  async searchProducts(ctx: SupplierCallContext, q: { query?: string; cursor?: string; pageSize: number }): Promise<ProductSearchPage> {
    const page = pageOfCursor(q.cursor, MAX_PAGE);
    const pageSize = pageSizeWithin(q.pageSize, MAX_PAGE_SIZE);
    const query = q.query?.trim() ? q.query : undefined;
    const answer = await this.send(ctx, { method: 'GET', path: '/v1/products', query: { q: query, page: String(page), pageSize: String(pageSize) } });
    return okBody(answer, (body) => {
      const o = asObj(body, 'page');
      const items = list(o, 'items', 'page').map((p, i) => readProduct(p, `page.items[${i}]`));
      const total = int(o, 'total', 'page');
      const served = int(o, 'pageSize', 'page');
      // Also stop on an empty page so a miscounting supplier cannot send callers round forever.
      const more = items.length > 0 && page * served < total;
      return { items, nextCursor: more ? String(page + 1) : null, total };
    });
  }

  async getProduct(ctx: SupplierCallContext, supplierProductId: string): Promise<SupplierProduct> {
    const subject = { productId: supplierProductId };
    const answer = await this.send(ctx, { method: 'GET', path: `/v1/products/${segment(supplierProductId, subject)}` });
    return okBody(answer, (body) => readProduct(body), subject);
  }

  resolveProductUrl(url: URL): string | null {
    // WHATWG URL has already lower-cased the host and dropped a default :443.
    if (url.protocol !== 'https:' || url.hostname !== PRODUCT_HOST || url.port !== '' || url.username !== '' || url.password !== '') return null;
    const match = PRODUCT_PATH.exec(url.pathname);
    return match ? match[1] : null;
  }

  async registerNotificationAddress(ctx: SupplierCallContext, url: string): Promise<Record<string, string>> {
    const answer = await this.send(ctx, { method: 'PUT', path: '/v1/webhook', body: { url } });
    return okBody(answer, (body) => ({ signingSecret: str(asObj(body, 'webhook'), 'signingSecret', 'webhook') }));
  }

  async findOrderByNumber(ctx: SupplierCallContext, orderNumber: string): Promise<SupplierOrderSnapshot | null> {
    const answer = await this.send(ctx, { method: 'GET', path: '/v1/orders', query: { orderNumber } });
    return okBody(answer, (body) => {
      const items = list(asObj(body, 'orders'), 'items', 'orders');
      if (items.length > 1) throw new ShapeError('orders.items has more than one order for one number');
      if (items.length === 0) return null;
      const order = readOrder(items[0], 'orders.items[0]');
      if (order.orderNumber !== orderNumber) throw new ShapeError('orders.items[0] has another order number');
      return order;
    });
  }

  async quoteShipping(ctx: SupplierCallContext, input: Pick<SupplierOrderInput, 'items' | 'destination'>): Promise<ShippingQuote> {
    const answer = await this.send(ctx, {
      method: 'POST',
      path: '/v1/shipping/quote',
      body: { items: input.items.map((i) => ({ variantId: i.variantId, quantity: i.quantity })), country: input.destination.country },
    });
    return okBody(answer, (body) => {
      const o = asObj(body, 'quote');
      return {
        service: str(o, 'service', 'quote'),
        cost: { amountMinor: int(o, 'costMinor', 'quote'), currency: str(o, 'currency', 'quote') },
        maxDays: Number.isInteger(o.maxDays) ? Number(o.maxDays) : null,
      };
    });
  }

  async createOrder(ctx: SupplierCallContext, input: SupplierOrderInput): Promise<SupplierOrderSnapshot> {
    const d = input.destination;
    // Absent optional fields stay absent: the sandbox echoes exactly what it was sent.
    const destination: Record<string, string> = { name: d.name, line1: d.line1, city: d.city, postalCode: d.postalCode, country: d.country };
    for (const key of ['line2', 'region', 'phone', 'email'] as const) {
      const value = d[key];
      if (value !== undefined && value !== '') destination[key] = value;
    }
    const body = {
      orderNumber: input.orderNumber,
      items: input.items.map((line) => ({ variantId: line.variantId, quantity: line.quantity })),
      destination,
      ...(input.reshipOf ? { reshipOf: input.reshipOf } : {}),
    };
    // Never retried here: after a timeout the order may exist, and the caller looks it up by number.
    const answer = await this.send(ctx, { method: 'POST', path: '/v1/orders', body });
    return okBody(answer, (b) => readOrder(b));
  }

  async getOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
    const answer = await this.send(ctx, { method: 'GET', path: `/v1/orders/${segment(supplierOrderId, { supplierOrderId })}` });
    return okBody(answer, (b) => readOrder(b), { supplierOrderId });
  }

  async payOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
    const answer = await this.send(ctx, { method: 'POST', path: `/v1/orders/${segment(supplierOrderId, { supplierOrderId })}/pay` });
    return okBody(answer, (b) => readOrder(b), { supplierOrderId });
  }

  async cancelOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
    const answer = await this.send(ctx, { method: 'POST', path: `/v1/orders/${segment(supplierOrderId, { supplierOrderId })}/cancel` });
    return okBody(answer, (b) => readOrder(b), { supplierOrderId });
  }

  // ---- claims (./claims.ts; docs/suppliers/sandbox.md, "Claims")
  private readonly claims = sandboxClaims((ctx, call) => this.send(ctx, call));
  claimTerms = (ctx: SupplierCallContext, id: string, lines: ClaimLine[]) => this.claims.terms(ctx, id, lines);
  openClaim = (ctx: SupplierCallContext, input: ClaimInput) => this.claims.open(ctx, input);
  findClaim = (ctx: SupplierCallContext, _id: string, claimKey: string) => this.claims.find(ctx, claimKey);
  getClaim = (ctx: SupplierCallContext, _id: string, claimId: string) => this.claims.get(ctx, claimId);
  cancelClaim = (ctx: SupplierCallContext, _id: string, claimId: string) => this.claims.cancel(ctx, claimId);

  verifyNotification(
    ctx: SupplierCallContext,
    input: { rawBody: string; headers: Record<string, string | undefined>; now: Date },
  ): VerifiedNotification | null {
    try {
      return readNotification(ctx.credentials.signingSecret, input);
    } catch {
      // Every refusal looks the same to the caller, including a body that is not JSON.
      return null;
    }
  }
}
