/**
 * What the fake CJ knows: accounts, tokens, catalogue, orders, faults, and what it received. HTTP lives in app.ts;
 * everything here answers or throws a CjFail carrying CJ's code.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { isCountryCode, countryName } from '../../../server/suppliers/countries';
import { minorToUsd, usdToMinor } from '../../../server/suppliers/cj/money';
import { buildCatalogue, FakeProduct, FakeVariant } from './catalogue';
import { FakeCjAfterShipping, type FakeDispute, type ParcelException } from './after-shipping';

export class CjFail extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly httpStatus = 200,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export type Topic = 'product' | 'stock' | 'order' | 'logistics';
export type OrderStatus = 'CREATED' | 'IN_CART' | 'UNPAID' | 'UNSHIPPED' | 'SHIPPED' | 'DELIVERED' | 'CANCELLED';

export interface Account {
  openId: string;
  apiKey: string;
  email: string;
  balanceCents: number;
  /** Requests per second this account may make (CJ: 1, 2, 4 or 6 by level). */
  qps: number;
  /** Daily API points; null = not counted. */
  points: number | null;
  pointsUsed: number;
  callbacks: Partial<Record<Topic, string>>;
  subscribed: Set<string>;
  lastExchangeAt: number | null;
  /** The pair getAccessToken answers again within 24 h. */
  current: { access: string; refresh: string; issuedAt: number } | null;
  refreshTimes: number[];
  arrivals: number[];
}

interface TokenRecord {
  openId: string;
  kind: 'access' | 'refresh';
  expiresAt: number;
  revoked: boolean;
}

export interface FakeOrder {
  orderId: string;
  cjOrderId: string;
  openId: string;
  orderNumber: string;
  status: OrderStatus;
  payType: number;
  logisticName: string;
  fromCountryCode: string;
  shipping: Record<string, string>;
  products: Array<{ vid: string; quantity: number; unitCents: number; lineItemId: string }>;
  productCents: number;
  postageCents: number;
  createdAt: number;
  updatedAt: number;
  paidAt: number | null;
  shippedAt: number | null;
  deliveredAt: number | null;
  trackNumber: string | null;
}

export interface FailRule {
  /** A path under the API base ("/shopping/order/createOrderV2"), or "*" for any. */
  path: string;
  code: number;
  message: string;
  httpStatus: number;
  count: number;
}

export interface Faults {
  latencyMs: number;
  failNext: FailRule[];
  /** Creates that succeed and then never answer (the socket is dropped after createHangMs). */
  timeoutAfterCreateNext: number;
  /** openIds whose every call answers HTTP 503. */
  unavailableAccounts: string[];
  /** order/list ignores the (undocumented) orderNumbers filter. */
  listIgnoresOrderNumbers: boolean;
  /** Follow the docs (1603003) instead of what is observed live (a repeated number is accepted). */
  rejectDuplicateOrderNumbers: boolean;
  /** product/query leaves `inventories` out of its variants. */
  omitInventories: boolean;
  /** How logistics notifications spell their type. */
  logisticType: 'LOGISTIC' | 'LOGISTICS';
}

export const noFaults = (): Faults => ({
  latencyMs: 0,
  failNext: [],
  timeoutAfterCreateNext: 0,
  unavailableAccounts: [],
  listIgnoresOrderNumbers: false,
  rejectDuplicateOrderNumbers: false,
  omitInventories: false,
  logisticType: 'LOGISTIC',
});

export interface FakeCjSettings {
  accessTokenTtlMs: number;
  refreshTokenTtlMs: number;
  tokenExchangeIntervalMs: number;
  refreshesPerMinute: number;
  strictCallbackUrls: boolean;
}

export interface Notification {
  url: string;
  openId: string;
  body: Record<string, unknown>;
}

/** Points per call (CJ from mid-2026); unlisted calls cost nothing. */
const POINTS: Record<string, number> = {
  '/product/listV2': 50,
  '/product/list': 50,
  '/product/query': 10,
  '/product/variant/query': 10,
  '/product/variant/queryByVid': 10,
  '/product/stock/queryByVid': 10,
  '/logistic/freightCalculate': 10,
};

const DAY_MS = 86_400_000;
const CHINA_OFFSET_MS = 8 * 3_600_000;

/** "2026-01-02T03:04:05+08:00", as CJ dates its tokens. */
export function chinaIso(ms: number): string {
  return `${new Date(ms + CHINA_OFFSET_MS).toISOString().slice(0, 19)}+08:00`;
}

/** "2026-01-02 03:04:05" in China time, as CJ dates its orders. */
export function chinaDate(ms: number | null): string | null {
  return ms === null ? null : new Date(ms + CHINA_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

export function signCjNotification(openId: string, rawBody: string): string {
  return createHmac('sha256', openId).update(rawBody, 'utf8').digest('base64');
}

const usd = (cents: number) => Number(minorToUsd(cents));

export class FakeCjState {
  readonly accounts = new Map<string, Account>();
  private readonly byKey = new Map<string, Account>();
  private readonly tokens = new Map<string, TokenRecord>();
  readonly products: FakeProduct[];
  private readonly productById = new Map<string, FakeProduct>();
  private readonly variantById = new Map<string, FakeVariant>();
  readonly orders: FakeOrder[] = [];
  readonly unserved = new Set<string>();
  faults: Faults = noFaults();
  /** After shipping: the clock, parcels' scans, disputes (./after-shipping.ts). */
  readonly after = new FakeCjAfterShipping();
  private sequence = 0;
  readonly report = {
    createAttempts: 0,
    creates: [] as Array<{ orderNumber: string; payType: number; logisticName: string; openId: string; accepted: boolean }>,
    payments: [] as Array<{ orderId: string; cjOrderId: string; orderNumber: string; openId: string; amountCents: number; source: 'api' | 'control' }>,
    tokenExchanges: 0,
    tokenRefreshes: 0,
    qpsRejections: 0,
    quotaRejections: 0,
    calls: {} as Record<string, number>,
    arrivals: [] as Array<{ path: string; openId: string | null; at: number }>,
    notifications: { sent: 0, delivered: 0, failed: 0 },
  };

  constructor(
    readonly settings: FakeCjSettings,
    seed: number,
    productCount: number,
    private readonly notify: (n: Notification) => void,
  ) {
    this.products = buildCatalogue(seed, productCount);
    for (const p of this.products) {
      this.productById.set(p.pid, p);
      for (const v of p.variants) this.variantById.set(v.vid, v);
    }
  }

  private nextNumber(): number {
    return ++this.sequence;
  }

  // ---------------------------------------------------------------- accounts and tokens

  createAccount(opts: { balanceCents?: number; qps?: number; points?: number | null; email?: string } = {}): Account {
    const n = this.nextNumber();
    const openId = String(1_000_000_000 + n * 7 + Math.floor(Math.random() * 7));
    const account: Account = {
      openId,
      apiKey: `CJ${4_000_000 + n}@api@${randomBytes(16).toString('hex')}`,
      email: opts.email ?? `merchant${n}@cj-fake.test`,
      balanceCents: opts.balanceCents ?? 100_000,
      qps: opts.qps ?? 1,
      points: opts.points ?? null,
      pointsUsed: 0,
      callbacks: {},
      subscribed: new Set(),
      lastExchangeAt: null,
      current: null,
      refreshTimes: [],
      arrivals: [],
    };
    this.accounts.set(openId, account);
    this.byKey.set(account.apiKey, account);
    return account;
  }

  account(openId: string): Account {
    const a = this.accounts.get(openId);
    if (!a) throw new CjFail(1600300, `No account ${openId}`, 404);
    return a;
  }

  private mint(openId: string, kind: 'access' | 'refresh', ttlMs: number): string {
    const token = kind === 'access' ? `API@CJ${openId}@CJ:${randomBytes(24).toString('base64url')}` : `RT@CJ${openId}@${randomBytes(24).toString('base64url')}`;
    this.tokens.set(token, { openId, kind, expiresAt: Date.now() + ttlMs, revoked: false });
    return token;
  }

  private tokenAnswer(account: Account, withOpenId: boolean): Record<string, unknown> {
    const cur = account.current!;
    const access = this.tokens.get(cur.access)!;
    const refresh = this.tokens.get(cur.refresh)!;
    return {
      ...(withOpenId ? { openId: Number(account.openId) } : {}),
      accessToken: cur.access,
      accessTokenExpiryDate: chinaIso(access.expiresAt),
      refreshToken: cur.refresh,
      refreshTokenExpiryDate: chinaIso(refresh.expiresAt),
      createDate: chinaIso(cur.issuedAt),
    };
  }

  private newPair(account: Account): void {
    account.current = {
      access: this.mint(account.openId, 'access', this.settings.accessTokenTtlMs),
      refresh: this.mint(account.openId, 'refresh', this.settings.refreshTokenTtlMs),
      issuedAt: Date.now(),
    };
  }

  private valid(token: string | undefined, kind: 'access' | 'refresh'): TokenRecord | null {
    const rec = token ? this.tokens.get(token) : undefined;
    return rec && rec.kind === kind && !rec.revoked && rec.expiresAt > Date.now() ? rec : null;
  }

  getAccessToken(body: Record<string, unknown>): Record<string, unknown> {
    const apiKey = body.apiKey;
    if (typeof apiKey !== 'string' || !apiKey) {
      if (typeof body.email === 'string') throw new CjFail(1600001, 'Invalid API key or access token (email and password sign-in is not offered here)');
      throw new CjFail(16900403, 'apiKey is empty');
    }
    const account = this.byKey.get(apiKey);
    if (!account) throw new CjFail(1600001, 'Invalid API key or access token');
    const now = Date.now();
    if (account.lastExchangeAt !== null && now - account.lastExchangeAt < this.settings.tokenExchangeIntervalMs) {
      this.report.qpsRejections++;
      throw new CjFail(
        1600200,
        `Too Many Requests: getAccessToken may be called once every ${Math.round(this.settings.tokenExchangeIntervalMs / 1000)} seconds`,
      );
    }
    account.lastExchangeAt = now;
    this.report.tokenExchanges++;
    // Within 24 h the same tokens come back, while they are good.
    const cur = account.current;
    if (!cur || now - cur.issuedAt > DAY_MS || !this.valid(cur.access, 'access') || !this.valid(cur.refresh, 'refresh')) this.newPair(account);
    return this.tokenAnswer(account, true);
  }

  refreshAccessToken(body: Record<string, unknown>): Record<string, unknown> {
    const token = typeof body.refreshToken === 'string' ? body.refreshToken : '';
    if (!token) throw new CjFail(16900403, 'refreshToken is empty');
    const rec = this.valid(token, 'refresh');
    if (!rec) throw new CjFail(1600003, 'Invalid refresh token');
    const account = this.account(rec.openId);
    const now = Date.now();
    account.refreshTimes = account.refreshTimes.filter((at) => now - at < 60_000);
    if (account.refreshTimes.length >= this.settings.refreshesPerMinute) {
      this.report.qpsRejections++;
      throw new CjFail(1600200, `Too Many Requests: refreshAccessToken may be called ${this.settings.refreshesPerMinute} times a minute`);
    }
    account.refreshTimes.push(now);
    this.report.tokenRefreshes++;
    // The refresh token is used up; the old access token lasts until its own expiry.
    rec.revoked = true;
    this.newPair(account);
    return this.tokenAnswer(account, false);
  }

  logout(openId: string): void {
    for (const rec of this.tokens.values()) if (rec.openId === openId) rec.revoked = true;
    this.account(openId).current = null;
  }

  /** Test lever: the account's current tokens stop working (as after a logout elsewhere). */
  revokeTokens(openId: string, which: { access?: boolean; refresh?: boolean }): void {
    const account = this.account(openId);
    for (const rec of this.tokens.values()) {
      if (rec.openId !== openId) continue;
      if ((rec.kind === 'access' && which.access !== false) || (rec.kind === 'refresh' && which.refresh)) rec.revoked = true;
    }
    if (which.refresh) account.current = null;
  }

  /** Test lever: an access token for calling the API by hand, without using the account's exchange. */
  extraToken(openId: string): string {
    this.account(openId);
    return this.mint(openId, 'access', this.settings.accessTokenTtlMs);
  }

  tokensOf(openId: string): string[] {
    return [...this.tokens.entries()].filter(([, r]) => r.openId === openId).map(([t]) => t);
  }

  /** The account behind an access token; CJ's codes for a missing or refused one. */
  authenticate(token: string | undefined): Account {
    if (!token) throw new CjFail(1600002, 'Access token is empty');
    const rec = this.valid(token, 'access');
    if (!rec) throw new CjFail(1600001, 'Invalid API key or access token');
    return this.account(rec.openId);
  }

  /** Per-account limits, in CJ's order: requests per second, then points. */
  admit(account: Account, path: string): void {
    const now = Date.now();
    account.arrivals = account.arrivals.filter((at) => now - at < 1000);
    if (account.arrivals.length >= account.qps) {
      this.report.qpsRejections++;
      throw new CjFail(1600200, `Too Many Requests, QPS limit is ${account.qps}`);
    }
    account.arrivals.push(now);
    const cost = POINTS[path] ?? 0;
    if (account.points !== null && cost > 0) {
      if (account.pointsUsed + cost > account.points) {
        this.report.quotaRejections++;
        throw new CjFail(1600201, 'Too many requests: the daily points are used up', 429, {
          pointsInfo: { usedToday: account.pointsUsed, remaining: account.points - account.pointsUsed, total: account.points },
        });
      }
      account.pointsUsed += cost;
    }
  }

  // ---------------------------------------------------------------- products

  product(pid: string): FakeProduct | undefined {
    return this.productById.get(pid);
  }

  variant(vid: string): FakeVariant | undefined {
    return this.variantById.get(vid);
  }

  static variantStock(v: FakeVariant): number {
    return v.stock.reduce((s, r) => s + r.stock, 0);
  }

  private priceRange(p: FakeProduct): string {
    const prices = p.variants.filter((v) => !v.removed).map((v) => usdToMinor(v.sellPrice));
    if (!prices.length) return '0.00';
    const lo = Math.min(...prices);
    const hi = Math.max(...prices);
    return lo === hi ? minorToUsd(lo) : `${minorToUsd(lo)} -- ${minorToUsd(hi)}`;
  }

  listV2(q: { keyWord?: string; page: number; size: number }): Record<string, unknown> {
    const word = q.keyWord?.toLowerCase();
    const matches = this.products.filter((p) => p.status === 3 && (!word || p.nameEn.toLowerCase().includes(word) || p.sku.toLowerCase().includes(word)));
    const start = (q.page - 1) * q.size;
    const productList = matches.slice(start, start + q.size).map((p) => ({
      id: p.pid,
      nameEn: p.nameEn,
      sku: p.sku,
      spu: p.sku,
      bigImage: p.image,
      sellPrice: this.priceRange(p),
      nowPrice: this.priceRange(p),
      listedNum: 0,
      warehouseInventoryNum: p.variants.reduce((s, v) => s + FakeCjState.variantStock(v), 0),
      currency: 'USD',
    }));
    return {
      pageSize: q.size,
      pageNumber: q.page,
      totalRecords: matches.length,
      totalPages: Math.ceil(matches.length / q.size),
      content: [{ productList, relatedCategoryList: [] }],
    };
  }

  private stockRows(v: FakeVariant) {
    return v.stock.map((r) => ({
      vid: v.vid,
      areaId: r.areaId,
      areaEn: r.areaEn,
      countryCode: r.countryCode,
      totalInventoryNum: r.stock,
      cjInventoryNum: r.stock,
      factoryInventoryNum: 0,
      storageNum: r.stock,
    }));
  }

  productQuery(q: { pid?: string; productSku?: string; variantSku?: string; features?: string }): Record<string, unknown> {
    let p: FakeProduct | undefined;
    if (q.pid) p = this.productById.get(q.pid);
    else if (q.productSku) p = this.products.find((x) => x.sku === q.productSku);
    else if (q.variantSku) p = this.products.find((x) => x.variants.some((v) => v.sku === q.variantSku));
    else throw new CjFail(16900403, 'pid is empty');
    if (!p) throw new CjFail(1602001, 'Product not found');
    const inventories = (q.features ?? '').includes('enable_inventory') && !this.faults.omitInventories;
    return {
      pid: p.pid,
      productNameEn: p.nameEn,
      productName: JSON.stringify([p.nameEn]),
      productSku: p.sku,
      productImage: JSON.stringify([p.image]),
      productWeight: p.weight,
      description: `<p>${p.nameEn}: a product of the fake CJ catalogue.</p>`,
      sellPrice: this.priceRange(p),
      categoryName: p.categoryName,
      status: String(p.status),
      variants: p.variants
        .filter((v) => !v.removed)
        .map((v) => ({
          vid: v.vid,
          pid: p.pid,
          variantNameEn: v.nameEn,
          variantSku: v.sku,
          variantImage: p.image,
          variantKey: v.key,
          variantWeight: v.weight,
          // A number, as documented; a price CJ keeps as a range stays text.
          variantSellPrice: /^\d+(\.\d+)?$/.test(v.sellPrice) ? Number(v.sellPrice) : v.sellPrice,
          ...(inventories ? { inventories: this.stockRows(v) } : {}),
        })),
    };
  }

  stockByVid(vid: string): unknown[] {
    const v = this.variantById.get(vid);
    if (!v || v.removed) throw new CjFail(1602000, 'Variant not found');
    return this.stockRows(v);
  }

  // ---------------------------------------------------------------- freight

  private freightOptions(from: string, to: string, lines: Array<{ v: FakeVariant; quantity: number }>): Array<{ name: string; cents: number; aging: string }> {
    if (!isCountryCode(to)) throw new CjFail(1605002, `Country code ${to} not found`);
    if (!isCountryCode(from)) throw new CjFail(1605002, `Country code ${from} not found`);
    if (this.unserved.has(to)) return [];
    const grams = lines.reduce((s, l) => s + l.v.weight * l.quantity, 0);
    const distance = (to.charCodeAt(0) * 31 + to.charCodeAt(1)) % 7;
    // Listed by name, not by price: the cheapest is not always first.
    const options = [
      { name: 'CJPacket Ordinary', cents: 420 + Math.ceil(grams * 1.1) + distance * 35, aging: '7-15' },
      { name: 'CJPacket Sensitive', cents: 510 + Math.ceil(grams * 0.9) + distance * 20, aging: '8-18' },
      { name: 'YunExpress Standard', cents: 380 + Math.ceil(grams * 1.4) + distance * 50, aging: '6-12' },
    ];
    if (to === 'US') options.push({ name: 'USPS+', cents: 300 + Math.ceil(grams * 1.25), aging: '5-9' });
    return options;
  }

  private lines(products: unknown, purpose: 'freight' | 'order'): Array<{ v: FakeVariant; quantity: number }> {
    if (!Array.isArray(products) || !products.length) throw new CjFail(16900403, 'products is empty');
    return products.map((raw) => {
      const line = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
      const quantity = line.quantity;
      if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1) throw new CjFail(1600300, 'Param error: quantity');
      let v: FakeVariant | undefined;
      if (typeof line.vid === 'string') v = this.variantById.get(line.vid);
      else if (typeof line.sku === 'string') v = this.products.flatMap((p) => p.variants).find((x) => x.sku === line.sku);
      else throw new CjFail(16900403, 'vid is empty');
      if (!v) throw new CjFail(1602000, 'Variant not found');
      if (purpose === 'order') {
        if (v.removed) throw new CjFail(1602002, `Variant ${v.vid} has been removed from the shelves`);
        if (this.productById.get(v.pid)!.status !== 3) throw new CjFail(1602003, `Product ${v.pid} has been removed from the shelves`);
      }
      return { v, quantity };
    });
  }

  freightCalculate(body: Record<string, unknown>): unknown[] {
    const from = typeof body.startCountryCode === 'string' ? body.startCountryCode : '';
    const to = typeof body.endCountryCode === 'string' ? body.endCountryCode : '';
    if (!from) throw new CjFail(16900403, 'startCountryCode is empty');
    if (!to) throw new CjFail(16900403, 'endCountryCode is empty');
    const options = this.freightOptions(from, to, this.lines(body.products, 'freight'));
    return options.map((o) => ({
      logisticName: o.name,
      logisticAging: o.aging,
      logisticPrice: usd(o.cents),
      logisticPriceCn: usd(Math.round(o.cents * 7.1)),
      taxesFee: 0,
      clearanceOperationFee: 0,
      totalPostageFee: usd(o.cents),
    }));
  }

  // ---------------------------------------------------------------- orders

  private views(o: FakeOrder, detail: boolean): Record<string, unknown> {
    const view: Record<string, unknown> = {
      orderId: o.orderId,
      orderNum: o.orderNumber,
      cjOrderId: o.cjOrderId,
      shippingCountryCode: o.shipping.shippingCountryCode,
      shippingProvince: o.shipping.shippingProvince,
      shippingCity: o.shipping.shippingCity,
      shippingAddress: o.shipping.shippingAddress,
      shippingCustomerName: o.shipping.shippingCustomerName,
      shippingPhone: o.shipping.shippingPhone ?? null,
      remark: null,
      logisticName: o.logisticName,
      trackNumber: o.trackNumber,
      orderWeight: o.products.reduce((s, l) => s + (this.variantById.get(l.vid)?.weight ?? 0) * l.quantity, 0),
      orderAmount: usd(o.productCents + o.postageCents),
      productAmount: usd(o.productCents),
      postageAmount: usd(o.postageCents),
      orderStatus: o.status,
      createDate: chinaDate(o.createdAt),
      paymentDate: o.paidAt === null ? null : this.after.report(o.paidAt),
    };
    if (detail) {
      Object.assign(view, {
        cjOrderCode: o.cjOrderId,
        fromCountryCode: o.fromCountryCode,
        outWarehouseTime: o.shippedAt === null ? null : this.after.report(o.shippedAt),
        isComplete: o.status === 'DELIVERED',
        productList: o.products.map((l) => ({ vid: l.vid, quantity: l.quantity, sellPrice: usd(l.unitCents), lineItemId: l.lineItemId })),
      });
    }
    return view;
  }

  createOrder(account: Account, body: Record<string, unknown>): { view: Record<string, unknown>; order: FakeOrder } {
    this.report.createAttempts++;
    const need = (key: string) => {
      const v = body[key];
      if (typeof v !== 'string' || !v.trim()) throw new CjFail(16900403, `${key} is empty`);
      return v;
    };
    const orderNumber = need('orderNumber');
    if (orderNumber.length > 50) throw new CjFail(1600300, 'Param error: orderNumber is longer than 50');
    const shipping: Record<string, string> = {};
    for (const key of ['shippingCountryCode', 'shippingCountry', 'shippingProvince', 'shippingCity', 'shippingAddress', 'shippingCustomerName'])
      shipping[key] = need(key);
    for (const key of ['shippingZip', 'shippingPhone', 'shippingAddress2', 'email']) if (typeof body[key] === 'string') shipping[key] = body[key] as string;
    const logisticName = need('logisticName');
    const from = need('fromCountryCode');
    const payType = body.payType === undefined ? 1 : body.payType;
    if (payType !== 1 && payType !== 2 && payType !== 3) throw new CjFail(1600300, 'Param error: payType');
    const lines = this.lines(body.products, 'order');
    const to = shipping.shippingCountryCode;
    const options = this.freightOptions(from, to, lines);
    if (!options.length) throw new CjFail(1605001, `Logistic invalid: nothing ships to ${to}`);
    const option = options.find((o) => o.name === logisticName);
    if (!option) throw new CjFail(1605000, `Logistic ${logisticName} not found`);
    const record = { orderNumber, payType, logisticName, openId: account.openId, accepted: false };
    this.report.creates.push(record);
    if (this.faults.rejectDuplicateOrderNumbers && this.orders.some((o) => o.openId === account.openId && o.orderNumber === orderNumber)) {
      throw new CjFail(1603003, 'Order already exists, do not create it again');
    }
    const n = this.nextNumber();
    const now = Date.now();
    const order: FakeOrder = {
      orderId: String(2_400_000_000_000_000_000n + BigInt(n)),
      cjOrderId: `SD${String(26_000_000_000_000 + n)}`,
      openId: account.openId,
      orderNumber,
      status: 'CREATED',
      payType,
      logisticName,
      fromCountryCode: from,
      shipping,
      products: lines.map((l, i) => ({ vid: l.v.vid, quantity: l.quantity, unitCents: usdToMinor(l.v.sellPrice), lineItemId: `${n}-${i + 1}` })),
      productCents: lines.reduce((s, l) => s + usdToMinor(l.v.sellPrice) * l.quantity, 0),
      postageCents: option.cents,
      createdAt: now,
      updatedAt: now,
      paidAt: null,
      shippedAt: null,
      deliveredAt: null,
      trackNumber: null,
    };
    this.orders.push(order);
    record.accepted = true;
    this.orderNotification(order, 'INSERT');
    let cjPayUrl: string | null = null;
    if (payType === 2) this.pay(account, order, 'api');
    else if (payType === 1) {
      order.status = 'UNPAID';
      cjPayUrl = `https://cjdropshipping.com/pay/${order.cjOrderId}`;
    }
    return {
      order,
      view: {
        orderId: order.cjOrderId,
        orderNumber,
        shipmentOrderId: null,
        orderStatus: order.status,
        cjPayUrl,
        orderAmount: usd(order.productCents + order.postageCents),
        productAmount: usd(order.productCents),
        postageAmount: usd(order.postageCents),
        actualPayment: order.paidAt ? usd(order.productCents + order.postageCents) : null,
        productInfoList: order.products.map((l) => ({ vid: l.vid, quantity: l.quantity, lineItemId: l.lineItemId })),
        interceptOrderReasons: [],
      },
    };
  }

  /** By the CJ order code, the numeric id, or (getOrderDetail) the partner's own number. */
  findOrder(account: Account | null, id: string, byNumber: boolean): FakeOrder | undefined {
    const mine = account ? this.orders.filter((o) => o.openId === account.openId) : this.orders;
    return mine.find((o) => o.cjOrderId === id || o.orderId === id) ?? (byNumber ? mine.find((o) => o.orderNumber === id) : undefined);
  }

  orderDetail(account: Account, orderId: string): Record<string, unknown> {
    if (!orderId) throw new CjFail(16900403, 'orderId is empty');
    const order = this.findOrder(account, orderId, true);
    if (!order) throw new CjFail(1603100, 'Order not found');
    return this.views(order, true);
  }

  orderList(account: Account, q: { pageNum: number; pageSize: number; orderIds: string[]; orderNumbers: string[]; status?: string }): Record<string, unknown> {
    let rows = this.orders.filter((o) => o.openId === account.openId);
    if (q.orderIds.length) rows = rows.filter((o) => q.orderIds.includes(o.orderId) || q.orderIds.includes(o.cjOrderId));
    if (q.orderNumbers.length && !this.faults.listIgnoresOrderNumbers) rows = rows.filter((o) => q.orderNumbers.includes(o.orderNumber));
    // Observed: without a status every order is listed (the table's "default CANCELLED" is not what happens).
    if (q.status && q.status !== 'OTHER') rows = rows.filter((o) => o.status === q.status);
    rows = [...rows].sort((a, b) => b.createdAt - a.createdAt);
    const start = (q.pageNum - 1) * q.pageSize;
    return { pageNum: q.pageNum, pageSize: q.pageSize, total: rows.length, list: rows.slice(start, start + q.pageSize).map((o) => this.views(o, false)) };
  }

  deleteOrder(account: Account, orderId: string): void {
    if (!orderId) throw new CjFail(16900403, 'orderId is empty');
    const order = this.findOrder(account, orderId, false);
    if (!order) throw new CjFail(1603100, 'Order not found');
    if (!['CREATED', 'IN_CART', 'UNPAID'].includes(order.status)) throw new CjFail(1603002, `Order delete fail: the order is ${order.status}`);
    this.setStatus(order, 'CANCELLED');
  }

  payBalance(account: Account, orderId: unknown): void {
    if ((typeof orderId !== 'string' && typeof orderId !== 'number') || orderId === '') throw new CjFail(16900403, 'orderId is empty');
    const order = this.findOrder(account, String(orderId), false);
    if (!order) throw new CjFail(1603100, 'Order not found');
    this.pay(account, order, 'api');
  }

  pay(account: Account, order: FakeOrder, source: 'api' | 'control'): void {
    if (order.status === 'CANCELLED') throw new CjFail(1603101, 'Pay fail: the order is cancelled');
    if (!['CREATED', 'IN_CART', 'UNPAID'].includes(order.status)) throw new CjFail(1603101, 'Pay fail: the order is already paid');
    const amount = order.productCents + order.postageCents;
    if (account.balanceCents < amount) throw new CjFail(1604000, 'Balance insufficient');
    account.balanceCents -= amount;
    order.paidAt = Date.now();
    this.report.payments.push({
      orderId: order.orderId,
      cjOrderId: order.cjOrderId,
      orderNumber: order.orderNumber,
      openId: account.openId,
      amountCents: amount,
      source,
    });
    this.setStatus(order, 'UNSHIPPED');
  }

  ship(order: FakeOrder, opts: { logisticName?: string; trackNumber?: string }): void {
    if (order.status !== 'UNSHIPPED') throw new CjFail(1600300, `Only a paid (UNSHIPPED) order ships; this one is ${order.status}`, 409);
    if (opts.logisticName) order.logisticName = opts.logisticName;
    order.trackNumber = opts.trackNumber ?? `CJPKL${String(7_000_000_000 + this.nextNumber())}`;
    order.shippedAt = this.after.now();
    this.setStatus(order, 'SHIPPED');
    this.after.shipped(order);
    this.logisticNotification(order, 1);
  }

  /** The clock moves: parcels scanned meanwhile are notified (LOGISTIC), the last scan delivers. */
  advanceClock(hours: number): { offsetHours: number; scans: number } {
    const moved = this.after.advance(hours);
    for (const { cjOrderId, scan } of moved) {
      const order = this.findOrder(null, cjOrderId, false)!;
      if (scan.status === 12 && order.status === 'SHIPPED') this.deliver(order);
      else this.logisticNotification(order, scan.status);
    }
    // Time passed for every parcel still out: CJ's order push, so that a stalled one is read again too.
    for (const o of this.orders) if (o.status === 'SHIPPED' && !moved.some((m) => m.cjOrderId === o.cjOrderId)) this.orderNotification(o, 'UPDATE');
    return { offsetHours: this.after.offsetMs / 3_600_000, scans: moved.length };
  }

  /** A test stalls a parcel or puts it in an exception; the exception is notified. */
  parcel(order: FakeOrder, change: { stalled?: boolean; exception?: ParcelException }): boolean {
    if (!change.exception) return this.after.stall(order.cjOrderId, change.stalled ?? true);
    const scan = this.after.exception(order.cjOrderId, change.exception);
    if (scan) this.logisticNotification(order, scan.status);
    return !!scan;
  }

  /** CJ's reissue: an order of its own for the disputed lines, paid, at no cost to the merchant. */
  resendFor(d: FakeDispute): string {
    const from = this.findOrder(null, d.orderId, false)!;
    const n = this.nextNumber();
    const now = Date.now();
    const products = from.products
      .filter((l) => d.productList.some((x) => x.lineItemId === l.lineItemId))
      .map((l, i) => ({ ...l, quantity: d.productList.find((x) => x.lineItemId === l.lineItemId)!.quantity, unitCents: 0, lineItemId: `${n}-${i + 1}` }));
    this.orders.push({
      ...from,
      orderId: String(2_400_000_000_000_000_000n + BigInt(n)),
      cjOrderId: `SD${String(26_000_000_000_000 + n)}`,
      orderNumber: `RESEND-${d.id}`,
      status: 'UNSHIPPED',
      products,
      productCents: 0,
      postageCents: 0,
      createdAt: now,
      updatedAt: now,
      paidAt: now,
      shippedAt: null,
      deliveredAt: null,
      trackNumber: null,
    });
    return `SD${String(26_000_000_000_000 + n)}`;
  }

  deliver(order: FakeOrder): void {
    if (order.status !== 'SHIPPED') throw new CjFail(1600300, `Only a shipped order is delivered; this one is ${order.status}`, 409);
    order.deliveredAt = this.after.now();
    this.setStatus(order, 'DELIVERED');
    this.logisticNotification(order, 12);
  }

  private setStatus(order: FakeOrder, status: OrderStatus): void {
    order.status = status;
    order.updatedAt = Date.now();
    this.orderNotification(order, 'UPDATE');
  }

  balance(account: Account): Record<string, unknown> {
    return { amount: usd(account.balanceCents), freezeAmount: 0, noWithdrawalAmount: 0 };
  }

  // ---------------------------------------------------------------- webhooks

  setWebhooks(account: Account, body: Record<string, unknown>): void {
    const topics: Topic[] = ['product', 'stock', 'order', 'logistics'];
    const given = topics.filter((t) => body[t] !== undefined);
    if (!given.length) throw new CjFail(16900204, 'Missing body');
    const changes: Partial<Record<Topic, string | null>> = {};
    for (const topic of given) {
      const setting = body[topic] && typeof body[topic] === 'object' ? (body[topic] as Record<string, unknown>) : {};
      if (setting.type === 'CANCEL') {
        changes[topic] = null;
        continue;
      }
      if (setting.type !== 'ENABLE') throw new CjFail(1600300, `Param error: ${topic}.type`);
      const urls = setting.callbackUrls;
      if (!Array.isArray(urls) || urls.length !== 1 || typeof urls[0] !== 'string') throw new CjFail(1606001, `${topic}.callbackUrls must hold one address`);
      let url: URL;
      try {
        url = new URL(urls[0]);
      } catch {
        throw new CjFail(1606001, `${topic}.callbackUrls[0] is not an address`);
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new CjFail(1606001, 'The callback address must be https');
      if (this.settings.strictCallbackUrls && (url.protocol !== 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname))) {
        throw new CjFail(1607001, 'The callback address must be a public https address');
      }
      changes[topic] = url.toString();
    }
    for (const [topic, url] of Object.entries(changes) as Array<[Topic, string | null]>) {
      if (url === null) delete account.callbacks[topic];
      else account.callbacks[topic] = url;
    }
  }

  subscribeProducts(account: Account, productIds: unknown): void {
    if (!Array.isArray(productIds) || !productIds.length) throw new CjFail(16900403, 'productIds is empty');
    if (productIds.length > 100) throw new CjFail(1600300, 'Param error: at most 100 productIds');
    for (const pid of productIds) {
      if (typeof pid !== 'string' || !this.productById.has(pid)) throw new CjFail(1602001, 'Product not found');
      account.subscribed.add(pid);
    }
  }

  private push(account: Account, topic: Topic, type: string, messageType: string, params: Record<string, unknown>): void {
    const url = account.callbacks[topic];
    if (!url) return;
    this.notify({
      url,
      openId: account.openId,
      body: { messageId: randomUUID().replace(/-/g, ''), type, messageType, openId: Number(account.openId), params },
    });
  }

  private orderNotification(order: FakeOrder, messageType: 'INSERT' | 'UPDATE'): void {
    const account = this.accounts.get(order.openId);
    if (!account) return;
    this.push(account, 'order', 'ORDER', messageType, {
      cjOrderId: order.cjOrderId,
      orderNumber: order.orderNumber,
      orderNum: order.orderNumber,
      orderStatus: order.status,
      logisticName: order.logisticName,
      trackNumber: order.trackNumber,
      trackingUrl: order.trackNumber ? `https://cjpacket.com/?trackingNumber=${order.trackNumber}` : null,
      createDate: chinaDate(order.createdAt),
      updateDate: chinaDate(order.updatedAt),
      payDate: chinaDate(order.paidAt),
      deliveryDate: chinaDate(order.shippedAt),
      completeDate: chinaDate(order.deliveredAt),
    });
  }

  private logisticNotification(order: FakeOrder, trackingStatus: number): void {
    const account = this.accounts.get(order.openId);
    if (!account) return;
    const events = this.after.events(order.cjOrderId);
    this.push(account, 'logistics', this.faults.logisticType, 'UPDATE', {
      orderId: order.cjOrderId,
      logisticName: order.logisticName,
      trackingNumber: order.trackNumber,
      trackingUrl: `https://cjpacket.com/?trackingNumber=${order.trackNumber}`,
      trackingStatus,
      logisticsTrackEvents: events,
    });
  }

  /** PRODUCT, VARIANT and STOCK pushes go to accounts that subscribed the product. */
  productChanged(p: FakeProduct, change: { product?: string[]; variant?: { v: FakeVariant; fields: string[] }; stock?: FakeVariant }): void {
    for (const account of this.accounts.values()) {
      if (!account.subscribed.has(p.pid)) continue;
      if (change.product) {
        this.push(account, 'product', 'PRODUCT', 'UPDATE', {
          pid: p.pid,
          productNameEn: p.nameEn,
          productSku: p.sku,
          productImage: p.image,
          productSellPrice: this.priceRange(p),
          productStatus: p.status,
          fields: change.product,
        });
      }
      if (change.variant) {
        const v = change.variant.v;
        this.push(account, 'product', 'VARIANT', v.removed ? 'DELETE' : 'UPDATE', {
          vid: v.vid,
          variantSku: v.sku,
          variantSellPrice: /^\d+(\.\d+)?$/.test(v.sellPrice) ? Number(v.sellPrice) : v.sellPrice,
          variantWeight: v.weight,
          variantStatus: v.removed ? 0 : 1,
          variantKey: v.key,
          fields: change.variant.fields,
        });
      }
      if (change.stock) {
        const v = change.stock;
        this.push(account, 'stock', 'STOCK', 'UPDATE', {
          [v.vid]: v.stock.map((r) => ({ vid: v.vid, areaId: r.areaId, areaEn: r.areaEn, countryCode: r.countryCode, storageNum: r.stock })),
        });
      }
    }
  }

  // ---------------------------------------------------------------- faults and report

  /** The first injected failure for this path, used up by this call. */
  takeFailure(path: string): FailRule | null {
    const rule = this.faults.failNext.find((r) => r.count > 0 && (r.path === '*' || r.path === path));
    if (!rule) return null;
    rule.count--;
    this.faults.failNext = this.faults.failNext.filter((r) => r.count > 0);
    return { ...rule };
  }

  received(): Record<string, unknown> {
    const ordersByNumber: Record<string, number> = {};
    for (const o of this.orders) ordersByNumber[o.orderNumber] = (ordersByNumber[o.orderNumber] ?? 0) + 1;
    return {
      ...this.report,
      disputes: this.after.disputes,
      disputeCreatesByKey: this.after.createsByKey,
      resends: this.after.resends,
      orders: this.orders.map((o) => ({
        orderId: o.orderId,
        cjOrderId: o.cjOrderId,
        orderNumber: o.orderNumber,
        openId: o.openId,
        status: o.status,
        payType: o.payType,
        logisticName: o.logisticName,
        amountCents: o.productCents + o.postageCents,
      })),
      ordersByNumber,
    };
  }
}
