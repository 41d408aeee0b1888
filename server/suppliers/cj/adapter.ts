/**
 * The CJ Dropshipping adapter, over CJ API 2.0 (docs/suppliers/cj.md): requests through http.ts, tokens by session.ts,
 * answers read by readers.ts, notifications by signature.ts. Every failure leaves as a SupplierError whose message
 * carries no key, token or account id.
 */
import { createHash } from 'node:crypto';
import { catalogueEntry } from '../adapter';
import type { CallLimits, CatalogueEntry, HealthResult, Money, ProductSearchPage, SupplierAdapter, SupplierCallContext, SupplierOrderInput, SupplierOrderSnapshot, SupplierProduct, VerifiedAccount, VerifiedNotification } from '../adapter';
import { SupplierError } from '../errors';
import { healthFrom } from '../health';
import { asObj, optionalText, ShapeError, text } from '../http';
import { chooseShipping, describeRule, maxDaysOf } from '../shipping';
import { countryName, isCountryCode } from '../countries';
import { CjAnswer, CjCall, CjHttp, failureOf, FailureContext, QPS_CODE, TOKEN_REJECTED_CODES } from './http';
import { cents, count, CURRENCY, imageOf, list, parseCjDate, readOrder, readProduct, readTokens, rowStock, snapshotOf, titleOf, WORLD } from './readers';
import { accountKeyOf, requestsPerSecond, SPACING_MARGIN_MS, TOKEN_SHAPE, TokenKeeper, Tokens } from './session';
import { CJ_DESCRIPTION } from './description';
import { readNotification } from './signature';
import { cjProductIdFromUrl, cjProductUrl } from './urls';


const MAX_PAGE = 1000;
const MAX_PAGE_SIZE = 100;
/** A call refused for too many requests per second is tried again this often, each in its own turn. */
const QPS_RETRIES = 2;
/** How many variant-to-product ids are remembered for VARIANT and STOCK notifications, which name variants only. */
const MAX_REMEMBERED_VARIANTS = 20_000;
const LIST_PAGE_SIZE = 50;
const CANCELLABLE_STATUSES = new Set(['CREATED', 'IN_CART', 'UNPAID']);

// ---- the adapter ----

export interface CjAdapterOptions {
  baseUrl: string;
  /** Least time between two key exchanges of one account (CJ: 5 minutes). For tests. */
  tokenExchangeIntervalMs?: number;
  /** Most token refreshes per account in a minute (CJ: 5). */
  refreshesPerMinute?: number;
}

export class CjAdapter implements SupplierAdapter {
  readonly entry: CatalogueEntry = CJ_ENTRY;
  private readonly http: CjHttp;
  /** CJ allows 1 to 6 requests a second per account by its level (settings.requestsPerSecond, default 1). */
  readonly limits: CallLimits = {
    callsInFlight: 2,
    callSpacingMs: (settings) => Math.ceil(1000 / requestsPerSecond(settings)) + SPACING_MARGIN_MS,
    // CJ counts per account: every connection (and the connect-time checks) on one API key shares the rate.
    rateKey: (credentials) => (typeof credentials.apiKey === 'string' ? `cj:${accountKeyOf(credentials.apiKey)}` : null),
  };
  readonly tokens: TokenKeeper;
  /**
   * vid -> pid of every product this process read, for notifications that name a variant only. A hint, not state:
   * another process without it refuses such a push (docs/decisions.md, Supplier contract).
   */
  private readonly productOfVariant = new Map<string, string>();

  constructor(opts: CjAdapterOptions) {
    this.http = new CjHttp(opts.baseUrl);
    this.tokens = new TokenKeeper(
      { exchange: (ctx, apiKey) => this.exchange(ctx, apiKey), refresh: (ctx, current) => this.refresh(ctx, current) },
      { exchangeIntervalMs: opts.tokenExchangeIntervalMs ?? 300_000, refreshesPerMinute: opts.refreshesPerMinute ?? 5 },
    );
  }

  // ---- calls ----

  private apiKey(ctx: SupplierCallContext): string {
    const key = ctx.credentials.apiKey;
    // Checked here so a bad value never reaches a body (or a message).
    if (typeof key !== 'string' || !TOKEN_SHAPE.test(key)) throw new SupplierError('credentialsRejected', 'The connection has no usable CJ API key');
    return key;
  }

  private secrets(ctx: SupplierCallContext, tokens?: Tokens): string[] {
    const values = Object.values(ctx.credentials).filter((v): v is string => typeof v === 'string' && v !== '');
    if (tokens) values.push(tokens.accessToken, tokens.refreshToken, tokens.openId);
    return values;
  }

  /** One turn of the connection's rate limit (kept by the service, see `limits`), then the request. */
  private async send(ctx: SupplierCallContext, apiKey: string, call: Omit<CjCall, 'timeoutMs' | 'secrets'>, tokens?: Tokens): Promise<CjAnswer> {
    await ctx.pace?.();
    return this.http.send({ ...call, timeoutMs: ctx.timeoutMs, secrets: this.secrets(ctx, tokens) });
  }

  /**
   * An authenticated call: a token CJ refuses is renewed once and the call made again; a call refused for too many
   * requests per second is made again in a later turn (CJ did not handle it). Answers only success.
   */
  private async request(ctx: SupplierCallContext, call: Omit<CjCall, 'timeoutMs' | 'secrets' | 'token'>, context: FailureContext, subject?: Record<string, string>): Promise<CjAnswer> {
    const apiKey = this.apiKey(ctx);
    let tokens = await this.tokens.get(ctx, apiKey);
    let renewed = false;
    for (let attempt = 0; ; attempt++) {
      const answer = await this.send(ctx, apiKey, { ...call, token: tokens.accessToken }, tokens);
      if (answer.code === 200) return answer;
      if (TOKEN_REJECTED_CODES.has(answer.code) && !renewed) {
        renewed = true;
        tokens = await this.tokens.get(ctx, apiKey, tokens.accessToken);
        continue;
      }
      if (answer.code === QPS_CODE && attempt < QPS_RETRIES) {
        // CJ counted more calls than the spacing allows (another client on the account): wait one more turn.
        await new Promise((r) => setTimeout(r, this.limits.callSpacingMs(ctx.settings) ?? 1000));
        continue;
      }
      throw failureOf(answer, context, subject);
    }
  }

  private read<T>(answer: CjAnswer, reader: (data: unknown, answer: CjAnswer) => T): T {
    try {
      return reader(answer.data, answer);
    } catch (err) {
      if (err instanceof SupplierError) throw err;
      const what = err instanceof ShapeError ? err.message : 'unreadable body';
      throw new SupplierError('unavailable', `CJ answered ${answer.label} with an unexpected body (${what})`);
    }
  }

  // ---- tokens ----
  private async exchange(ctx: SupplierCallContext, apiKey: string): Promise<Tokens> {
    const answer = await this.send(ctx, apiKey, { method: 'POST', path: '/authentication/getAccessToken', body: { apiKey } });
    if (answer.code !== 200) throw failureOf(answer, 'auth');
    return this.read(answer, (data, a) => readTokens(data, a));
  }

  private async refresh(ctx: SupplierCallContext, current: Tokens): Promise<Tokens> {
    const answer = await this.send(ctx, this.apiKey(ctx), { method: 'POST', path: '/authentication/refreshAccessToken', body: { refreshToken: current.refreshToken } }, current);
    if (answer.code !== 200) throw failureOf(answer, 'auth');
    return this.read(answer, (data, a) => readTokens(data, a, current.openId));
  }

  // ---- account ----

  private async balance(ctx: SupplierCallContext): Promise<Money> {
    const answer = await this.request(ctx, { method: 'GET', path: '/shopping/pay/getBalance' }, 'other');
    return this.read(answer, (data) => ({ amountMinor: cents(asObj(data, 'balance').amount, 'balance.amount'), currency: CURRENCY }));
  }

  async verifyCredentials(ctx: SupplierCallContext): Promise<VerifiedAccount> {
    const apiKey = this.apiKey(ctx);
    // The exchange proves the key; reading the balance proves the token works for the calls we make.
    await this.balance(ctx);
    const { openId } = await this.tokens.get(ctx, apiKey);
    // Never the openId itself: it is the key notifications are signed with. Its digest still tells accounts apart.
    return { accountLabel: `CJ account (API key ending ${apiKey.slice(-4)})`, accountId: `cj:${createHash('sha256').update(openId).digest('hex')}` };
  }

  healthCheck(ctx: SupplierCallContext): Promise<HealthResult> {
    return healthFrom(() => this.verifyCredentials(ctx), 'Unexpected error while checking CJ');
  }

  getBalance(ctx: SupplierCallContext): Promise<Money> {
    return this.balance(ctx);
  }

  // ---- products ----

  async searchProducts(ctx: SupplierCallContext, q: { query?: string; cursor?: string; pageSize: number }): Promise<ProductSearchPage> {
    let page = 1;
    if (q.cursor !== undefined) {
      if (!/^[1-9]\d{0,3}$/.test(q.cursor) || Number(q.cursor) > MAX_PAGE) throw new SupplierError('refused', 'Not a cursor this supplier gave out');
      page = Number(q.cursor);
    }
    const size = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(q.pageSize) || 1));
    const keyWord = q.query?.trim() ? q.query.trim() : undefined;
    const answer = await this.request(ctx, { method: 'GET', path: '/product/listV2', query: { keyWord, page: String(page), size: String(size) } }, 'other');
    return this.read(answer, (data) => {
      const o = asObj(data, 'page');
      const items: SupplierProduct[] = [];
      for (const [i, group] of list(o.content ?? [], 'page.content').entries()) {
        for (const [j, raw] of list(asObj(group, `page.content[${i}]`).productList ?? [], `page.content[${i}].productList`).entries()) {
          const p = asObj(raw, `page.content[${i}].productList[${j}]`);
          const id = text(p, 'id', `page.content[${i}].productList[${j}]`);
          const title = titleOf(p, id);
          // listV2 carries no variants: costs and stock come with the product itself.
          items.push({ id, title, description: '', url: cjProductUrl(id, title), imageUrl: imageOf(p), shipsTo: WORLD, variants: [], updatedAt: null });
        }
      }
      const total = count(o.totalRecords);
      const pages = count(o.totalPages);
      const more = items.length > 0 && page < Math.min(pages, MAX_PAGE);
      return { items, nextCursor: more ? String(page + 1) : null, total };
    });
  }

  async getProduct(ctx: SupplierCallContext, supplierProductId: string): Promise<SupplierProduct> {
    const subject = { productId: supplierProductId };
    const answer = await this.request(ctx, { method: 'GET', path: '/product/query', query: { pid: supplierProductId, features: 'enable_inventory' } }, 'product', subject);
    if (answer.data === null || answer.data === undefined) throw new SupplierError('notFound', 'CJ does not offer this product', subject);
    const { product, missingStock } = this.read(answer, (data) => readProduct(data));
    // Variants whose stock did not come with the product: CJ's stock call, one per variant.
    for (const variant of missingStock) variant.stock = await this.variantStock(ctx, variant.id);
    for (const v of product.variants) this.remember(v.id, product.id);
    return product;
  }
  private async variantStock(ctx: SupplierCallContext, vid: string): Promise<number> {
    const answer = await this.request(ctx, { method: 'GET', path: '/product/stock/queryByVid', query: { vid } }, 'product', { variantId: vid });
    return this.read(answer, (data) => (data === null ? 0 : list(data, 'stock').reduce((sum: number, row) => sum + rowStock(row), 0)));
  }

  private remember(vid: string, pid: string): void {
    this.productOfVariant.delete(vid);
    this.productOfVariant.set(vid, pid);
    if (this.productOfVariant.size > MAX_REMEMBERED_VARIANTS) {
      const oldest = this.productOfVariant.keys().next().value;
      if (oldest !== undefined) this.productOfVariant.delete(oldest);
    }
  }

  resolveProductUrl(url: URL): string | null {
    return cjProductIdFromUrl(url);
  }

  // ---- notifications ----

  async registerNotificationAddress(ctx: SupplierCallContext, url: string): Promise<Record<string, string>> {
    const topic = { type: 'ENABLE', callbackUrls: [url] };
    const apiKey = this.apiKey(ctx);
    try {
      // The registration key is plural `logistics`; deliveries say LOGISTIC.
      await this.request(ctx, { method: 'POST', path: '/webhook/set', body: { product: topic, stock: topic, order: topic, logistics: topic } }, 'other');
    } catch (err) {
      // 1606000 "already set": CJ keeps the address it has. Other refusals name what CJ disliked about the address.
      if (!(err instanceof SupplierError && err.kind === 'refused' && /\(1606000\)/.test(err.message))) throw err;
    }
    const tokens = await this.tokens.get(ctx, apiKey);
    // Notifications are signed with the account's openId; it is kept with the tokens.
    return { openId: tokens.openId };
  }

  verifyNotification(ctx: SupplierCallContext, input: { rawBody: string; headers: Record<string, string | undefined>; now: Date }): VerifiedNotification | null {
    try {
      return readNotification(ctx.credentials.openId, input, (vid) => this.productOfVariant.get(vid));
    } catch {
      // Every refusal looks the same to the caller, including a body that is not JSON.
      return null;
    }
  }
  /** The order as CJ has it now (getOrderDetail takes the CJ order code, or our own number). */
  private async detail(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot & { numericId: string | null }> {
    const subject = { supplierOrderId };
    const answer = await this.request(ctx, { method: 'GET', path: '/shopping/order/getOrderDetail', query: { orderId: supplierOrderId } }, 'order', subject);
    if (answer.data === null || answer.data === undefined) throw new SupplierError('notFound', 'CJ has no such order', subject);
    return this.read(answer, (data) => readOrder(data, 'order'));
  }

  /**
   * CJ does not refuse a repeated order number, so every create is preceded by this. `order/list` filtered by
   * `orderNumbers` (observed, not documented) and matched on `orderNum`; when the filter is not honoured the
   * order is asked for by our number through getOrderDetail. Duplicates: the earliest order not cancelled.
   */
  async findOrderByNumber(ctx: SupplierCallContext, orderNumber: string): Promise<SupplierOrderSnapshot | null> {
    const answer = await this.request(ctx, { method: 'GET', path: '/shopping/order/list', query: { pageNum: '1', pageSize: String(LIST_PAGE_SIZE), orderNumbers: orderNumber } }, 'order');
    const { matches, filtered } = this.read(answer, (data) => {
      const rows = data === null ? [] : list(asObj(data, 'orders').list ?? [], 'orders.list').map((raw, i) => asObj(raw, `orders.list[${i}]`));
      const mine = rows.filter((r) => optionalText(r, 'orderNum') === orderNumber || optionalText(r, 'orderNumber') === orderNumber);
      return {
        matches: mine.map((r, i) => ({ order: readOrder(r, `orders.list[${i}]`), created: parseCjDate(r.createDate) })),
        filtered: mine.length === rows.length,
      };
    });
    if (!matches.length && !filtered) {
      try {
        const found = await this.detail(ctx, orderNumber);
        return found.orderNumber === orderNumber ? snapshotOf(found) : null;
      } catch (err) {
        if (err instanceof SupplierError && err.kind === 'notFound') return null;
        throw err;
      }
    }
    if (!matches.length) return null;
    // CJ dates orders to the second; within one second its (growing) numeric ids tell the order.
    const idOrder = (a: string | null, b: string | null) => (a && b ? a.length - b.length || (a < b ? -1 : a > b ? 1 : 0) : 0);
    type Match = (typeof matches)[number];
    const byAge = (a: Match, b: Match) =>
      (Number.isFinite(a.created) ? a.created : Infinity) - (Number.isFinite(b.created) ? b.created : Infinity) || idOrder(a.order.numericId, b.order.numericId);
    const live = matches.filter((m) => m.order.status !== 'cancelled').sort(byAge);
    return snapshotOf((live[0] ?? matches.sort(byAge)[0]).order);
  }

  /** CJ's freight quote for the order; the connection's shipping rule picks the method (the cheapest by default). */
  private async chooseLogistic(ctx: SupplierCallContext, input: SupplierOrderInput, from: string): Promise<string> {
    const answer = await this.request(
      ctx,
      {
        method: 'POST',
        path: '/logistic/freightCalculate',
        body: { startCountryCode: from, endCountryCode: input.destination.country.toUpperCase(), zip: input.destination.postalCode, products: input.items.map((i) => ({ vid: i.variantId, quantity: i.quantity })) },
      },
      'order',
      input.items.length === 1 ? { variantId: input.items[0].variantId } : undefined,
    );
    const options = this.read(answer, (data) =>
      (data === null ? [] : list(data, 'freight')).map((raw, i) => {
        const o = asObj(raw, `freight[${i}]`);
        return { service: text(o, 'logisticName', `freight[${i}]`), costMinor: cents(o.logisticPrice, `freight[${i}].logisticPrice`), maxDays: maxDaysOf(o.logisticAging) };
      }),
    );
    const to = input.destination.country.toUpperCase();
    if (!options.length) throw new SupplierError('destinationUnsupported', `CJ has no shipping method from ${from} to ${to} for this order`);
    const rule = ctx.ordering?.shippingMethod;
    const chosen = chooseShipping(options, rule);
    if (!chosen) throw new SupplierError('destinationUnsupported', `CJ does not offer ${describeRule(rule)} from ${from} to ${to} for this order (it offers ${options.map((o) => o.service).join(', ')})`);
    return chosen.service;
  }

  async createOrder(ctx: SupplierCallContext, input: SupplierOrderInput): Promise<SupplierOrderSnapshot> {
    const d = input.destination;
    const country = d.country.toUpperCase();
    if (!isCountryCode(country)) throw new SupplierError('destinationUnsupported', `${country} is not a country CJ knows`);
    if (!input.items.length) throw new SupplierError('refused', 'An order needs at least one item');
    const from = typeof ctx.settings.fromCountryCode === 'string' && isCountryCode(ctx.settings.fromCountryCode) ? ctx.settings.fromCountryCode : 'CN';
    const logisticName = await this.chooseLogistic(ctx, input, from);
    // Right before creating: CJ would take the same number again.
    const existing = await this.findOrderByNumber(ctx, input.orderNumber);
    if (existing) return existing;
    const body: Record<string, unknown> = {
      orderNumber: input.orderNumber,
      shippingCountryCode: country,
      shippingCountry: countryName(country),
      shippingProvince: d.region || d.city,
      shippingCity: d.city,
      shippingAddress: d.line1,
      shippingCustomerName: d.name,
      shippingZip: d.postalCode,
      logisticName,
      fromCountryCode: from,
      // Create only: payment is a separate step, after reading the order.
      payType: 3,
      products: input.items.map((i) => ({ vid: i.variantId, quantity: i.quantity })),
    };
    if (d.line2) body.shippingAddress2 = d.line2;
    if (d.phone) body.shippingPhone = d.phone;
    if (d.email) body.email = d.email;
    // Never retried here: after a timeout the order may exist, and the caller looks it up by number.
    const answer = await this.request(ctx, { method: 'POST', path: '/shopping/order/createOrderV2', body }, 'order', input.items.length === 1 ? { variantId: input.items[0].variantId } : undefined);
    return this.read(answer, (data) => {
      const o = asObj(data, 'order');
      // The create answer may leave the status out (V3 leaves several fields null): a new order is CREATED.
      const created = readOrder({ ...o, orderStatus: optionalText(o, 'orderStatus') ?? 'CREATED', orderNumber: optionalText(o, 'orderNumber') ?? input.orderNumber }, 'order');
      return snapshotOf(created);
    });
  }

  async getOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
    return snapshotOf(await this.detail(ctx, supplierOrderId));
  }

  /** Pays from the CJ balance, only after reading the order: one already paid is never paid again. */
  async payOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
    const before = await this.detail(ctx, supplierOrderId);
    if (before.paid) throw new SupplierError('alreadyPaid', 'CJ already has this order paid', { supplierOrderId });
    if (before.status === 'cancelled') throw new SupplierError('refused', 'CJ cancelled this order; it cannot be paid', { supplierOrderId });
    // payBalance is observed to take the numeric order id where the code is refused.
    await this.request(ctx, { method: 'POST', path: '/shopping/pay/payBalance', body: { orderId: before.numericId ?? supplierOrderId } }, 'pay', { supplierOrderId });
    return snapshotOf(await this.detail(ctx, supplierOrderId));
  }

  /** CJ deletes orders that are not paid yet; a paid one is refused here, a shipped one is alreadyShipped. */
  async cancelOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
    const before = await this.detail(ctx, supplierOrderId);
    if (before.status === 'cancelled') return snapshotOf(before);
    if (before.status === 'shipped' || before.status === 'delivered') throw new SupplierError('alreadyShipped', 'CJ already shipped this order', { supplierOrderId });
    if (!CANCELLABLE_STATUSES.has(before.supplierStatus)) {
      throw new SupplierError('refused', `CJ does not cancel an order through its API once it is paid (${before.supplierStatus}); ask CJ support to cancel it`, { supplierOrderId });
    }
    await this.request(ctx, { method: 'DELETE', path: '/shopping/order/deleteOrder', query: { orderId: supplierOrderId } }, 'order', { supplierOrderId });
    try {
      return snapshotOf(await this.detail(ctx, supplierOrderId));
    } catch (err) {
      // A deleted order may no longer be listed at all.
      if (err instanceof SupplierError && err.kind === 'notFound') return { ...snapshotOf(before), supplierStatus: 'CANCELLED', status: 'cancelled', paid: false };
      throw err;
    }
  }
}

export const CJ_ENTRY: CatalogueEntry = catalogueEntry(CJ_DESCRIPTION, CjAdapter.prototype);

export function createCjAdapter(opts: CjAdapterOptions): CjAdapter {
  return new CjAdapter(opts);
}
