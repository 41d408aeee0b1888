/**
 * The CJ Dropshipping adapter, over CJ API 2.0 (docs/suppliers/cj.md). Every failure leaves as a SupplierError
 * whose message carries no key, token or account id.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type {
  CatalogueEntry,
  CreateOrderInput,
  HealthResult,
  Money,
  NotificationSubject,
  ProductSearchPage,
  SupplierAdapter,
  SupplierCallContext,
  SupplierOrderSnapshot,
  SupplierProduct,
  SupplierVariant,
  VerifiedAccount,
  VerifiedNotification,
} from '../adapter';
import { SupplierError } from '../errors';
import { countryName, ISO_COUNTRIES, isCountryCode } from './countries';
import { asObj, CjAnswer, CjCall, CjHttp, count, failureOf, FailureContext, list, Obj, optionalText, QPS_CODE, ShapeError, text, TOKEN_REJECTED_CODES } from './http';
import { MoneyFormatError, usdToMinor } from './money';
import { accountKeyOf, DEFAULT_REQUESTS_PER_SECOND, RateLimiter, TOKEN_SHAPE, TokenKeeper, Tokens } from './session';
import { cjProductIdFromUrl, cjProductUrl } from './urls';

export { usdToMinor } from './money';
export { cjProductIdFromUrl } from './urls';

const CURRENCY = 'USD';
const SIGN_HEADER = 'sign';
const MAX_PAGE = 1000;
const MAX_PAGE_SIZE = 100;
/** A call refused for too many requests per second is tried again this often, each in its own turn. */
const QPS_RETRIES = 2;
/** How many variant-to-product ids are remembered for VARIANT and STOCK notifications, which name variants only. */
const MAX_REMEMBERED_VARIANTS = 20_000;
const LIST_PAGE_SIZE = 50;

/** CJ's order statuses in the service's terms (docs/suppliers/cj.md). */
const ORDER_STATUS: Record<string, SupplierOrderSnapshot['status']> = {
  CREATED: 'created',
  IN_CART: 'created',
  UNPAID: 'created',
  UNSHIPPED: 'paid',
  SHIPPED: 'shipped',
  DELIVERED: 'delivered',
  CANCELLED: 'cancelled',
};
const PAID_STATUSES = new Set(['UNSHIPPED', 'SHIPPED', 'DELIVERED']);
const CANCELLABLE_STATUSES = new Set(['CREATED', 'IN_CART', 'UNPAID']);

export const CJ_ENTRY: CatalogueEntry = {
  key: 'cj',
  name: 'CJ Dropshipping',
  description:
    'CJ Dropshipping through its API 2.0. Connect with the API key from My CJ > Authorization > API. Orders are created at CJ and paid from the CJ balance; cost, stock and availability are synced.',
  capabilities: {
    authKind: 'apiKey',
    // CJ's only test switch (isSandbox on create) cannot be paid from the balance: test connections place nothing.
    hasSandbox: false,
    balance: true,
    cancel: true,
    notifications: true,
    payment: 'balance',
    syncFields: ['cost', 'stock', 'availability'],
  },
  settingsSchema: {
    type: 'object',
    properties: {
      requestsPerSecond: {
        type: 'integer',
        minimum: 1,
        maximum: 10,
        default: DEFAULT_REQUESTS_PER_SECOND,
        description: 'Calls per second this CJ account may make (CJ: Free 1, Plus 2, Prime 4, Advanced 6)',
      },
      fromCountryCode: { type: 'string', pattern: '^[A-Z]{2}$', default: 'CN', description: 'The CJ warehouse country orders ship from (ISO code)' },
    },
    additionalProperties: false,
  },
  defaultSettings: { requestsPerSecond: DEFAULT_REQUESTS_PER_SECOND, fromCountryCode: 'CN' },
  credentialsSchema: {
    type: 'object',
    properties: { apiKey: { type: 'string', minLength: 8, maxLength: 200, pattern: '^[\\x21-\\x7e]+$', description: 'The CJ API key (My CJ > Authorization > API)' } },
    required: ['apiKey'],
    additionalProperties: false,
  },
};

// ---- reading answers ----

/** CJ dates: ISO (tokens, "+08:00") or "yyyy-MM-dd HH:mm:ss" in China time; epoch milliseconds also taken. */
function parseCjDate(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  if (typeof value !== 'string' || !value) return NaN;
  const china = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?$/.exec(value);
  if (china) return Date.parse(`${china[1]}T${china[2]}${china[3] ?? ''}+08:00`);
  return Date.parse(value);
}

function isoOrNull(value: unknown): string | null {
  const at = parseCjDate(value);
  return Number.isFinite(at) ? new Date(at).toISOString() : null;
}

function cents(value: unknown, at: string): number {
  try {
    return usdToMinor(value);
  } catch (err) {
    if (err instanceof MoneyFormatError) throw new ShapeError(`${at} is not a USD amount`);
    throw err;
  }
}

function optionalCents(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  try {
    return usdToMinor(value);
  } catch {
    return null;
  }
}

/** `productImage` is a URL, or (observed) a JSON array of URLs in a string; `productImageSet` an array. */
function imageOf(o: Obj): string | null {
  const candidates: unknown[] = [];
  const raw = o.productImage ?? o.bigImage;
  if (typeof raw === 'string' && raw.trim().startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (Array.isArray(parsed)) candidates.push(...parsed);
    } catch {
      /* not an array after all */
    }
  } else candidates.push(raw);
  if (Array.isArray(o.productImageSet)) candidates.push(...o.productImageSet);
  const url = candidates.find((c): c is string => typeof c === 'string' && /^https?:\/\/\S+$/.test(c));
  return url ?? null;
}

/** `productName` is a JSON array in a string; the English name is preferred. */
function titleOf(o: Obj, fallback: string): string {
  const en = optionalText(o, 'productNameEn') ?? optionalText(o, 'nameEn');
  if (en) return en;
  if (typeof o.productName === 'string') {
    try {
      const names: unknown = JSON.parse(o.productName);
      if (Array.isArray(names) && typeof names[0] === 'string') return names[0];
    } catch {
      return o.productName;
    }
  }
  return fallback;
}

/** Stock of one warehouse row: the total, or CJ's plus the factory's, or the deprecated storage number. */
function rowStock(row: unknown): number {
  if (!row || typeof row !== 'object') return 0;
  const r = row as Obj;
  if (r.totalInventoryNum !== undefined && r.totalInventoryNum !== null) return count(r.totalInventoryNum);
  if (r.cjInventoryNum !== undefined || r.factoryInventoryNum !== undefined) return count(r.cjInventoryNum) + count(r.factoryInventoryNum);
  return count(r.storageNum);
}

const WORLD = [...ISO_COUNTRIES];

// ---- notifications ----

function verifySign(openId: string | undefined, rawBody: string, header: string | undefined): boolean {
  if (!openId || typeof header !== 'string' || header.length > 200) return false;
  const expected = Buffer.from(createHmac('sha256', openId).update(rawBody, 'utf8').digest('base64'), 'utf8');
  const given = Buffer.from(header.trim(), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

// ---- the adapter ----

export interface CjAdapterOptions {
  baseUrl: string;
  /** Least time between two key exchanges of one account (CJ: 5 minutes). For tests. */
  tokenExchangeIntervalMs?: number;
  /** Most token refreshes per account in a minute (CJ: 5). */
  refreshesPerMinute?: number;
}

export class CjAdapter implements SupplierAdapter {
  readonly entry = CJ_ENTRY;
  private readonly http: CjHttp;
  private readonly limiter = new RateLimiter();
  readonly tokens: TokenKeeper;
  /** vid -> pid of every product read, for notifications that name a variant only. */
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

  private rate(ctx: SupplierCallContext): number {
    const r = ctx.settings.requestsPerSecond;
    return typeof r === 'number' && Number.isInteger(r) && r >= 1 && r <= 10 ? r : DEFAULT_REQUESTS_PER_SECOND;
  }

  private secrets(ctx: SupplierCallContext, tokens?: Tokens): string[] {
    const values = Object.values(ctx.credentials).filter((v): v is string => typeof v === 'string' && v !== '');
    if (tokens) values.push(tokens.accessToken, tokens.refreshToken, tokens.openId);
    return values;
  }

  /** One turn of the account's rate limit, then the request. */
  private async send(ctx: SupplierCallContext, apiKey: string, call: Omit<CjCall, 'timeoutMs' | 'secrets'>, tokens?: Tokens): Promise<CjAnswer> {
    await this.limiter.take(accountKeyOf(apiKey), this.rate(ctx));
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
      if (answer.code === QPS_CODE && attempt < QPS_RETRIES) continue;
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

  private readTokens(data: unknown, answer: CjAnswer, openId?: string): Tokens {
    const o = asObj(data, 'token');
    let id = openId;
    if (id === undefined) {
      const raw = o.openId;
      if (typeof raw === 'string' && /^\d{1,30}$/.test(raw)) id = raw;
      else {
        // A Long may not survive JSON.parse: take its digits from the text.
        const m = /"openId"\s*:\s*"?(\d{1,30})"?/.exec(answer.text);
        if (!m) throw new ShapeError('token.openId is not an id');
        id = m[1];
      }
    }
    const accessToken = text(o, 'accessToken', 'token');
    const refreshToken = text(o, 'refreshToken', 'token');
    if (!TOKEN_SHAPE.test(accessToken) || !TOKEN_SHAPE.test(refreshToken)) throw new ShapeError('token has an unusable token');
    const accessTokenExpiresAt = parseCjDate(o.accessTokenExpiryDate);
    const refreshTokenExpiresAt = parseCjDate(o.refreshTokenExpiryDate);
    if (!Number.isFinite(accessTokenExpiresAt) || !Number.isFinite(refreshTokenExpiresAt)) throw new ShapeError('token has no readable expiry dates');
    const created = parseCjDate(o.createDate);
    return { openId: id, accessToken, refreshToken, accessTokenExpiresAt, refreshTokenExpiresAt, issuedAt: Number.isFinite(created) ? created : Date.now() };
  }

  private async exchange(ctx: SupplierCallContext, apiKey: string): Promise<Tokens> {
    const answer = await this.send(ctx, apiKey, { method: 'POST', path: '/authentication/getAccessToken', body: { apiKey } });
    if (answer.code !== 200) throw failureOf(answer, 'auth');
    return this.read(answer, (data, a) => this.readTokens(data, a));
  }

  private async refresh(ctx: SupplierCallContext, current: Tokens): Promise<Tokens> {
    const answer = await this.send(ctx, this.apiKey(ctx), { method: 'POST', path: '/authentication/refreshAccessToken', body: { refreshToken: current.refreshToken } }, current);
    if (answer.code !== 200) throw failureOf(answer, 'auth');
    return this.read(answer, (data, a) => this.readTokens(data, a, current.openId));
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
    // Never the openId in the label: it is the key notifications are signed with (the service keeps only a digest of accountId).
    return { accountLabel: `CJ account (API key ending ${apiKey.slice(-4)})`, accountId: `cj:${openId}` };
  }

  async healthCheck(ctx: SupplierCallContext): Promise<HealthResult> {
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    try {
      const { accountLabel } = await this.verifyCredentials(ctx);
      return { ok: true, latencyMs: latency(), message: `Connected as ${accountLabel}` };
    } catch (err) {
      const message = err instanceof SupplierError ? err.message : 'Unexpected error while checking CJ';
      return { ok: false, latencyMs: latency(), message };
    }
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
    const { product, missingStock } = this.read(answer, (data) => this.readProduct(data));
    // Variants whose stock did not come with the product: CJ's stock call, one per variant.
    for (const variant of missingStock) variant.stock = await this.variantStock(ctx, variant.id);
    for (const v of product.variants) this.remember(v.id, product.id);
    return product;
  }

  private readProduct(data: unknown): { product: SupplierProduct; missingStock: SupplierVariant[] } {
    const o = asObj(data, 'product');
    const pid = text(o, 'pid', 'product');
    const status = o.status;
    // 3 is "on sale"; a product without a status is taken as offered.
    const onSale = status === undefined || status === null || String(status) === '3';
    const missingStock: SupplierVariant[] = [];
    const variants = list(o.variants ?? [], 'product.variants').map((raw, i): SupplierVariant => {
      const at = `product.variants[${i}]`;
      const v = asObj(raw, at);
      const vid = text(v, 'vid', at);
      const key = optionalText(v, 'variantKey');
      const off = v.variantStatus !== undefined && v.variantStatus !== null && String(v.variantStatus) === '0';
      const variant: SupplierVariant = {
        id: vid,
        sku: optionalText(v, 'variantSku') ?? vid,
        title: optionalText(v, 'variantNameEn') ?? key ?? optionalText(v, 'variantSku') ?? vid,
        options: key ? { variant: key } : {},
        cost: { amountMinor: cents(v.variantSellPrice, `${at}.variantSellPrice`), currency: CURRENCY },
        stock: Array.isArray(v.inventories) ? v.inventories.reduce((sum: number, row) => sum + rowStock(row), 0) : 0,
        available: onSale && !off,
      };
      if (!Array.isArray(v.inventories)) missingStock.push(variant);
      return variant;
    });
    const title = titleOf(o, pid);
    const description = typeof o.description === 'string' ? o.description : '';
    return { product: { id: pid, title, description, url: cjProductUrl(pid, title), imageUrl: imageOf(o), shipsTo: WORLD, variants, updatedAt: null }, missingStock };
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
      // CJ signs the raw body only, with no timestamp: a replay is caught by its messageId (the service's receipts).
      if (!verifySign(ctx.credentials.openId, input.rawBody, input.headers[SIGN_HEADER])) return null;
      const event: unknown = JSON.parse(input.rawBody);
      if (!event || typeof event !== 'object' || Array.isArray(event)) return null;
      const e = event as Obj;
      const type = typeof e.type === 'string' ? e.type.toUpperCase() : '';
      const params = e.params && typeof e.params === 'object' && !Array.isArray(e.params) ? (e.params as Obj) : null;
      if (!params) return null;
      const eventId = optionalText(e, 'messageId');
      const subjects = this.subjectsOf(type, params);
      return subjects.length ? { eventId, subjects } : null;
    } catch {
      // Every refusal looks the same to the caller, including a body that is not JSON.
      return null;
    }
  }

  private subjectsOf(type: string, params: Obj): NotificationSubject[] {
    switch (type) {
      case 'ORDER': {
        const id = optionalText(params, 'cjOrderId');
        const orderNumber = optionalText(params, 'orderNumber') ?? optionalText(params, 'orderNum');
        return id ? [{ kind: 'order', supplierOrderId: id, ...(orderNumber ? { orderNumber } : {}) }] : [];
      }
      // Documented as LOGISTIC; both spellings are taken, as the registration key is `logistics`.
      case 'LOGISTIC':
      case 'LOGISTICS': {
        const id = optionalText(params, 'orderId') ?? optionalText(params, 'cjOrderId');
        return id ? [{ kind: 'order', supplierOrderId: id }] : [];
      }
      case 'PRODUCT': {
        const pid = optionalText(params, 'pid');
        return pid ? [{ kind: 'product', supplierProductId: pid }] : [];
      }
      case 'VARIANT': {
        const pid = optionalText(params, 'pid') ?? this.productOfVariant.get(optionalText(params, 'vid') ?? '');
        return pid ? [{ kind: 'product', supplierProductId: pid }] : [];
      }
      case 'STOCK': {
        // A map keyed by vid of warehouse rows.
        const pids = new Set<string>();
        for (const [vid, rows] of Object.entries(params)) {
          const first = Array.isArray(rows) && rows[0] && typeof rows[0] === 'object' ? (rows[0] as Obj) : null;
          const pid = (first && optionalText(first, 'pid')) ?? this.productOfVariant.get(vid);
          if (pid) pids.add(pid);
        }
        return [...pids].slice(0, 100).map((pid) => ({ kind: 'product', supplierProductId: pid }));
      }
      default:
        return [];
    }
  }

  // ---- orders ----

  private readOrder(raw: unknown, at: string): SupplierOrderSnapshot & { numericId: string | null } {
    const o = asObj(raw, at);
    const supplierStatus = text(o, 'orderStatus', at).toUpperCase();
    const status = ORDER_STATUS[supplierStatus];
    if (!status) throw new ShapeError(`${at}.orderStatus is not a known status`);
    // Lists and details put the CJ order code in cjOrderId/cjOrderCode and a number in orderId; create answers the code as orderId.
    const code = optionalText(o, 'cjOrderCode') ?? optionalText(o, 'cjOrderId');
    const supplierOrderId = code ?? text(o, 'orderId', at);
    const numericId = code ? optionalText(o, 'orderId') : null;
    const items = optionalCents(o.productAmount);
    const shippingMinor = optionalCents(o.postageAmount);
    const total = optionalCents(o.orderAmount);
    const costs = items !== null && shippingMinor !== null && total !== null ? { itemsMinor: items, shippingMinor, totalMinor: total, currency: CURRENCY } : null;
    const trackingNumber = optionalText(o, 'trackNumber') ?? optionalText(o, 'trackingNumber');
    const shipping = trackingNumber
      ? { carrier: optionalText(o, 'logisticName') ?? 'CJ', trackingNumber, shippedAt: isoOrNull(o.outWarehouseTime ?? o.deliveryTime ?? null) }
      : null;
    return {
      supplierOrderId,
      numericId,
      orderNumber: optionalText(o, 'orderNum') ?? optionalText(o, 'orderNumber') ?? '',
      supplierStatus,
      status,
      paid: PAID_STATUSES.has(supplierStatus),
      costs,
      shipping,
    };
  }

  private snapshot(o: SupplierOrderSnapshot & { numericId?: string | null }): SupplierOrderSnapshot {
    const { numericId: _numericId, ...snap } = o;
    return snap;
  }

  /** The order as CJ has it now (getOrderDetail takes the CJ order code, or our own number). */
  private async detail(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot & { numericId: string | null }> {
    const subject = { supplierOrderId };
    const answer = await this.request(ctx, { method: 'GET', path: '/shopping/order/getOrderDetail', query: { orderId: supplierOrderId } }, 'order', subject);
    if (answer.data === null || answer.data === undefined) throw new SupplierError('notFound', 'CJ has no such order', subject);
    return this.read(answer, (data) => this.readOrder(data, 'order'));
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
        matches: mine.map((r, i) => ({ order: this.readOrder(r, `orders.list[${i}]`), created: parseCjDate(r.createDate) })),
        filtered: mine.length === rows.length,
      };
    });
    if (!matches.length && !filtered) {
      try {
        const found = await this.detail(ctx, orderNumber);
        return found.orderNumber === orderNumber ? this.snapshot(found) : null;
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
    return this.snapshot((live[0] ?? matches.sort(byAge)[0]).order);
  }

  /** CJ's freight quote for the order; the cheapest method is the one used. */
  private async cheapestLogistic(ctx: SupplierCallContext, input: CreateOrderInput, from: string): Promise<string> {
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
        return { name: text(o, 'logisticName', `freight[${i}]`), price: cents(o.logisticPrice, `freight[${i}].logisticPrice`) };
      }),
    );
    if (!options.length) throw new SupplierError('destinationUnsupported', `CJ has no shipping method from ${from} to ${input.destination.country.toUpperCase()} for this order`);
    return options.reduce((best, o) => (o.price < best.price ? o : best)).name;
  }

  async createOrder(ctx: SupplierCallContext, input: CreateOrderInput): Promise<SupplierOrderSnapshot> {
    const d = input.destination;
    const country = d.country.toUpperCase();
    if (!isCountryCode(country)) throw new SupplierError('destinationUnsupported', `${country} is not a country CJ knows`);
    if (!input.items.length) throw new SupplierError('refused', 'An order needs at least one item');
    const from = typeof ctx.settings.fromCountryCode === 'string' && isCountryCode(ctx.settings.fromCountryCode) ? ctx.settings.fromCountryCode : 'CN';
    const logisticName = await this.cheapestLogistic(ctx, input, from);
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
      const created = this.readOrder({ ...o, orderStatus: optionalText(o, 'orderStatus') ?? 'CREATED', orderNumber: optionalText(o, 'orderNumber') ?? input.orderNumber }, 'order');
      return this.snapshot(created);
    });
  }

  async getOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
    return this.snapshot(await this.detail(ctx, supplierOrderId));
  }

  /** Pays from the CJ balance, only after reading the order: one already paid is never paid again. */
  async payOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
    const before = await this.detail(ctx, supplierOrderId);
    if (before.paid) throw new SupplierError('alreadyPaid', 'CJ already has this order paid', { supplierOrderId });
    if (before.status === 'cancelled') throw new SupplierError('refused', 'CJ cancelled this order; it cannot be paid', { supplierOrderId });
    // payBalance is observed to take the numeric order id where the code is refused.
    await this.request(ctx, { method: 'POST', path: '/shopping/pay/payBalance', body: { orderId: before.numericId ?? supplierOrderId } }, 'pay', { supplierOrderId });
    return this.snapshot(await this.detail(ctx, supplierOrderId));
  }

  /** CJ deletes orders that are not paid yet; a paid one is refused here, a shipped one is alreadyShipped. */
  async cancelOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
    const before = await this.detail(ctx, supplierOrderId);
    if (before.status === 'cancelled') return this.snapshot(before);
    if (before.status === 'shipped' || before.status === 'delivered') throw new SupplierError('alreadyShipped', 'CJ already shipped this order', { supplierOrderId });
    if (!CANCELLABLE_STATUSES.has(before.supplierStatus)) {
      throw new SupplierError('refused', `CJ does not cancel an order through its API once it is paid (${before.supplierStatus}); ask CJ support to cancel it`, { supplierOrderId });
    }
    await this.request(ctx, { method: 'DELETE', path: '/shopping/order/deleteOrder', query: { orderId: supplierOrderId } }, 'order', { supplierOrderId });
    try {
      return this.snapshot(await this.detail(ctx, supplierOrderId));
    } catch (err) {
      // A deleted order may no longer be listed at all.
      if (err instanceof SupplierError && err.kind === 'notFound') return { ...this.snapshot(before), supplierStatus: 'CANCELLED', status: 'cancelled', paid: false };
      throw err;
    }
  }
}

export function createCjAdapter(opts: CjAdapterOptions): CjAdapter {
  return new CjAdapter(opts);
}
