/**
 * The AliExpress Dropshipping adapter (docs/suppliers/aliexpress.md): signed calls through http.ts, the sign-in in
 * tokens.ts, answers read by readers.ts and orders.ts, codes mapped by codes.ts, orders placed by placing.ts and read
 * back by reading.ts. Every
 * failure leaves as a SupplierError whose message carries no token or secret.
 */
import { catalogueEntry } from '../adapter';
import type { CallLimits, CatalogueEntry, ConnectionMode, HealthResult, Money, ProductSearchPage, SupplierAdapter, SupplierCallContext, SupplierOrderInput, SupplierOrderSnapshot, SupplierProduct, VerifiedAccount, VerifiedNotification } from '../adapter';
import { SupplierError } from '../errors';
import { healthFrom } from '../health';
import { asObj, Obj, secretsOf, ShapeError } from '../http';
import { pageOfCursor, pageSizeWithin } from '../paging';
import { AeContext, CALL_LIMIT, refusalOf } from './codes';
import { ALIEXPRESS_DESCRIPTION, DEFAULT_REQUESTS_PER_SECOND, setting } from './description';
import { AeApp, AeHttp, AeRefusal } from './http';
import { placeOrder } from './placing';
import { findByNumber, readOrders } from './reading';
import { count, listOf, readProduct, readSearchItem } from './readers';
import { AeTokens, readTokenAnswer, renewable, renewalTime, storedTokens, tokenFields } from './tokens';

const MAX_PAGE = 100;
const MAX_PAGE_SIZE = 50;
/** A call refused with ApiCallLimit is made again this many times, each after the ban (1 s) and in its own turn. */
const CALL_LIMIT_RETRIES = 2;
const PRODUCT_HOST = /^(?:[a-z]{2,3}\.|www\.|m\.)?aliexpress\.(?:com|us)$/;
const PRODUCT_PATH = /^\/(?:item|i)\/(\d{6,30})\.html$/;

export interface AliExpressAdapterOptions {
  app: AeApp;
  /** How long an ApiCallLimit ban lasts before the call is made again (AliExpress: 1 s). For tests. */
  callLimitWaitMs?: number;
}

export function requestsPerSecond(settings: Record<string, unknown>): number {
  const r = settings.requestsPerSecond;
  return typeof r === 'number' && Number.isInteger(r) && r >= 1 && r <= 50 ? r : DEFAULT_REQUESTS_PER_SECOND;
}


export class AliExpressAdapter implements SupplierAdapter {
  readonly entry: CatalogueEntry = ALIEXPRESS_ENTRY;
  readonly limits: CallLimits = {
    callsInFlight: 4,
    callSpacingMs: (settings) => Math.ceil(1000 / requestsPerSecond(settings)),
    // Every connection signed in to the same AliExpress account shares its rate.
    rateKey: (credentials) => (credentials.userId ? `aliexpress:${credentials.userId}` : null),
  };
  private readonly http: AeHttp;
  private readonly callLimitWaitMs: number;

  constructor(opts: AliExpressAdapterOptions) {
    this.http = new AeHttp(opts.app);
    this.callLimitWaitMs = opts.callLimitWaitMs ?? 1000;
  }

  // ---- calls

  private tokens(ctx: SupplierCallContext): AeTokens {
    const t = storedTokens(ctx.credentials);
    if (!t) throw new SupplierError('credentialsRejected', 'The connection has no usable AliExpress sign-in; sign in to AliExpress again');
    return t;
  }

  private secrets(ctx: SupplierCallContext, extra: string[] = []): string[] {
    return [...secretsOf(ctx.credentials), this.http.app.appSecret, ...extra];
  }

  /** A business call in the connection's turn; ApiCallLimit is a throttle: waited out and made again, then `unavailable` (throttled). */
  async callWithText(
    ctx: SupplierCallContext,
    method: string,
    params: Record<string, string>,
    context: AeContext,
    subject?: Record<string, string>,
    refused: (r: AeRefusal) => SupplierError = (r) => refusalOf(r, context, subject),
  ): Promise<{ body: Obj; text: string }> {
    const token = this.tokens(ctx).accessToken;
    for (let attempt = 0; ; attempt++) {
      await ctx.pace?.();
      const answer = await this.http.business(method, params, token, { timeoutMs: ctx.timeoutMs, secrets: this.secrets(ctx) });
      if (answer.ok) return answer;
      const limited = answer.refusal.code === CALL_LIMIT || answer.refusal.subCode === CALL_LIMIT;
      if (limited && attempt < CALL_LIMIT_RETRIES) {
        await new Promise((r) => setTimeout(r, this.callLimitWaitMs));
        continue;
      }
      throw refused(answer.refusal);
    }
  }

  async call(ctx: SupplierCallContext, method: string, params: Record<string, string>, context: AeContext, subject?: Record<string, string>, refused?: (r: AeRefusal) => SupplierError): Promise<Obj> {
    return (await this.callWithText(ctx, method, params, context, subject, refused)).body;
  }

  /** Reads an answer; a wrong shape is AliExpress answering what it could not have meant (`unavailable`). */
  read<T>(label: string, reader: () => T): T {
    try {
      return reader();
    } catch (err) {
      if (err instanceof SupplierError) throw err;
      throw new SupplierError('unavailable', `AliExpress answered ${label} with an unexpected body (${err instanceof ShapeError ? err.message : 'unreadable body'})`);
    }
  }

  // ---- sign-in

  signInUrl(input: { state: string; redirectUri: string; mode: ConnectionMode }): string {
    const q = new URLSearchParams({ response_type: 'code', force_auth: 'true', redirect_uri: input.redirectUri, client_id: this.http.app.appKey, state: input.state });
    return `${this.http.baseUrl}/oauth/authorize?${q.toString()}`;
  }

  async exchangeSignInCode(input: { code: string; redirectUri: string; timeoutMs: number }): Promise<Record<string, string>> {
    const answer = await this.http.system('/auth/token/create', { code: input.code }, { timeoutMs: input.timeoutMs, secrets: [input.code, this.http.app.appSecret] });
    if (!answer.ok) throw refusalOf(answer.refusal, 'auth');
    return tokenFields(this.read('/auth/token/create', () => readTokenAnswer(answer.body, Date.now())));
  }

  credentialsRenewAt(credentials: Record<string, string>): Date | null {
    const t = storedTokens(credentials);
    return t ? renewalTime(t) : null;
  }

  async renewCredentials(ctx: SupplierCallContext): Promise<Record<string, string>> {
    const current = this.tokens(ctx);
    if (!renewable(current, Date.now())) throw new SupplierError('credentialsRejected', 'The AliExpress sign-in cannot be renewed (AliExpress gave no refresh token, or it ended); sign in to AliExpress again');
    await ctx.pace?.();
    const answer = await this.http.system('/auth/token/refresh', { refresh_token: current.refreshToken }, { timeoutMs: ctx.timeoutMs, secrets: this.secrets(ctx) });
    if (!answer.ok) throw refusalOf(answer.refusal, 'auth');
    return tokenFields(this.read('/auth/token/refresh', () => readTokenAnswer(answer.body, Date.now(), current)));
  }

  // ---- account

  async verifyCredentials(ctx: SupplierCallContext): Promise<VerifiedAccount> {
    const t = this.tokens(ctx);
    if (Date.now() >= t.accessTokenExpiresAt) throw new SupplierError('credentialsRejected', 'The AliExpress sign-in has ended; sign in to AliExpress again');
    // One cheap signed call proves the token and the app's signature.
    await this.search(ctx, undefined, 1, 1);
    return { accountLabel: `AliExpress buyer ${t.userNick}`, accountId: `aliexpress:${t.userId}` };
  }

  healthCheck(ctx: SupplierCallContext): Promise<HealthResult> {
    return healthFrom(() => this.verifyCredentials(ctx), 'Unexpected error while checking AliExpress');
  }

  async getBalance(): Promise<Money> {
    throw new SupplierError('notSupported', 'AliExpress reports no balance: orders are paid from the buyer account as they are created');
  }

  // ---- products

  private async search(ctx: SupplierCallContext, keyWord: string | undefined, page: number, pageSize: number): Promise<{ items: SupplierProduct[]; total: number }> {
    const params: Record<string, string> = { local: setting(ctx, 'language', 'en'), countryCode: setting(ctx, 'shipToCountry', 'US'), currency: setting(ctx, 'currency', 'USD'), pageIndex: String(page), pageSize: String(pageSize) };
    if (keyWord) params.keyWord = keyWord;
    const body = await this.call(ctx, 'aliexpress.ds.text.search', params, 'other');
    return this.read('aliexpress.ds.text.search', () => {
      const data = asObj(body.data ?? asObj(body.result, 'result').data, 'data');
      const items = listOf(data.products, 'data.products').map((p, i) => readSearchItem(p, `data.products[${i}]`));
      return { items, total: count(data.totalCount) };
    });
  }

  async searchProducts(ctx: SupplierCallContext, q: { query?: string; cursor?: string; pageSize: number }): Promise<ProductSearchPage> {
    const page = pageOfCursor(q.cursor, MAX_PAGE);
    const size = pageSizeWithin(q.pageSize, MAX_PAGE_SIZE);
    const { items, total } = await this.search(ctx, q.query?.trim() || undefined, page, size);
    const more = items.length > 0 && page * size < total && page < MAX_PAGE;
    return { items, nextCursor: more ? String(page + 1) : null, total };
  }

  /** The product as sold to `country` (the connection's ship-to country unless an order names another). */
  async productFor(ctx: SupplierCallContext, productId: string, country: string, context: AeContext) {
    const subject = { productId };
    if (!/^\d{1,30}$/.test(productId)) throw new SupplierError(context === 'product' ? 'notFound' : 'variantUnavailable', 'Not an AliExpress product id', subject);
    const body = await this.call(
      ctx,
      'aliexpress.ds.product.get',
      { product_id: productId, ship_to_country: country, target_currency: setting(ctx, 'currency', 'USD'), target_language: setting(ctx, 'language', 'en'), remove_personal_benefit: 'false' },
      context,
      subject,
    );
    return this.read('aliexpress.ds.product.get', () => readProduct(body.result, setting(ctx, 'currency', 'USD')));
  }

  async getProduct(ctx: SupplierCallContext, supplierProductId: string): Promise<SupplierProduct> {
    return (await this.productFor(ctx, supplierProductId, setting(ctx, 'shipToCountry', 'US'), 'product')).product;
  }

  resolveProductUrl(url: URL): string | null {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    if (!PRODUCT_HOST.test(url.hostname) || url.port !== '' || url.username !== '' || url.password !== '') return null;
    return PRODUCT_PATH.exec(url.pathname)?.[1] ?? null;
  }

  // ---- orders

  findOrderByNumber(ctx: SupplierCallContext, orderNumber: string): Promise<SupplierOrderSnapshot | null> {
    return findByNumber(this, ctx, orderNumber);
  }

  createOrder(ctx: SupplierCallContext, input: SupplierOrderInput): Promise<SupplierOrderSnapshot> {
    return placeOrder(this, ctx, input);
  }

  getOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
    return readOrders(this, ctx, supplierOrderId);
  }

  /** AliExpress takes payment only as it creates an order (with automatic payment on); there is no payment call. */
  async payOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
    const now = await this.getOrder(ctx, supplierOrderId);
    if (now.paid) throw new SupplierError('alreadyPaid', 'AliExpress already has this order paid', { supplierOrderId });
    throw new SupplierError(
      'notSupported',
      'AliExpress takes payment only as it creates an order (with the connection\'s automatic payment on) and has no payment call: pay this order on aliexpress.com, then retry it here to read the payment back',
      { supplierOrderId },
    );
  }

  /** AliExpress has no cancel call: orders are cancelled on its website. */
  async cancelOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
    const now = await this.getOrder(ctx, supplierOrderId);
    if (now.status === 'cancelled') return now;
    if (now.status === 'shipped' || now.status === 'delivered') throw new SupplierError('alreadyShipped', 'AliExpress already shipped this order', { supplierOrderId });
    throw new SupplierError('notSupported', 'AliExpress has no cancel call: cancel this order on aliexpress.com (My orders), where the seller may still allow it', { supplierOrderId });
  }

  verifyNotification(): VerifiedNotification | null {
    // AliExpress sends this service no notifications (the catalogue says so): nothing is ever accepted.
    return null;
  }
}

export const ALIEXPRESS_ENTRY: CatalogueEntry = catalogueEntry(ALIEXPRESS_DESCRIPTION, AliExpressAdapter.prototype);

export function createAliExpressAdapter(opts: AliExpressAdapterOptions): AliExpressAdapter {
  return new AliExpressAdapter(opts);
}
