/**
 * Adapters for the sandbox supplier (docs/suppliers/sandbox.md): an API-key entry and a sign-in entry
 * over one HTTP client. Every failure leaves as a SupplierError whose message carries no secret.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { networkErrorCode, readCapped } from '../http';
import type {
  CatalogueEntry,
  ConnectionMode,
  CreateOrderInput,
  HealthResult,
  Money,
  NotificationSubject,
  VerifiedAccount,
  VerifiedNotification,
  ProductSearchPage,
  SupplierAdapter,
  SupplierCallContext,
  SupplierCapabilities,
  SupplierOrderSnapshot,
  SupplierProduct,
  SupplierVariant,
} from '../adapter';
import { SupplierError } from '../errors';

const PRODUCT_HOST = 'shop.sandbox-supplier.test';
const PRODUCT_PATH = /^\/p\/(SBX-P\d+)\/?$/;
const SIGNATURE_HEADER = 'x-sandbox-signature';
const SIGNATURE_TOLERANCE_SECONDS = 300;
const MAX_PAGE_SIZE = 100;
// A broken or hostile endpoint must not make us buffer without bound.
const MAX_MESSAGE_LENGTH = 300;
// Printable ASCII only: anything else could not be a sandbox token and would break the header.
const TOKEN_SHAPE = /^[\x21-\x7e]{1,500}$/;
const ORDER_STATUSES = ['created', 'paid', 'processing', 'shipped', 'delivered', 'cancelled'] as const;

// ---- reading answers ----

type Obj = Record<string, unknown>;

/** A 2xx body that does not have the documented shape; names the field, never its value. */
class ShapeError extends Error {}

function asObj(value: unknown, at: string): Obj {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new ShapeError(`${at} is not an object`);
  return value as Obj;
}

function str(o: Obj, key: string, at: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw new ShapeError(`${at}.${key} is not a string`);
  return v;
}

function nullableStr(o: Obj, key: string, at: string): string | null {
  const v = o[key];
  if (v === null || v === undefined) return null;
  if (typeof v !== 'string') throw new ShapeError(`${at}.${key} is not a string`);
  return v;
}

function int(o: Obj, key: string, at: string): number {
  const v = o[key];
  // Money and counts are integers on the wire; a fraction means the answer is not what we think it is.
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new ShapeError(`${at}.${key} is not an integer`);
  return v;
}

function bool(o: Obj, key: string, at: string): boolean {
  const v = o[key];
  if (typeof v !== 'boolean') throw new ShapeError(`${at}.${key} is not a boolean`);
  return v;
}

function list(o: Obj, key: string, at: string): unknown[] {
  const v = o[key];
  if (!Array.isArray(v)) throw new ShapeError(`${at}.${key} is not an array`);
  return v;
}

function stringMap(value: unknown, at: string): Record<string, string> {
  const o = asObj(value, at);
  const out: Record<string, string> = {};
  for (const key of Object.keys(o)) out[key] = str(o, key, at);
  return out;
}

function readAccount(body: unknown): { accountId: string; environment: ConnectionMode; balanceMinor: number; currency: string } {
  const o = asObj(body, 'account');
  const environment = str(o, 'environment', 'account');
  if (environment !== 'live' && environment !== 'test') throw new ShapeError('account.environment is neither live nor test');
  return { accountId: str(o, 'accountId', 'account'), environment, balanceMinor: int(o, 'balanceMinor', 'account'), currency: str(o, 'currency', 'account') };
}

function readProduct(body: unknown, at = 'product'): SupplierProduct {
  const o = asObj(body, at);
  const currency = str(o, 'currency', at);
  const variants = list(o, 'variants', at).map((raw, i): SupplierVariant => {
    const vAt = `${at}.variants[${i}]`;
    const v = asObj(raw, vAt);
    return {
      id: str(v, 'id', vAt),
      sku: str(v, 'sku', vAt),
      title: str(v, 'title', vAt),
      options: stringMap(v.options, `${vAt}.options`),
      cost: { amountMinor: int(v, 'costMinor', vAt), currency },
      stock: int(v, 'stock', vAt),
      available: bool(v, 'available', vAt),
    };
  });
  return {
    id: str(o, 'id', at),
    title: str(o, 'title', at),
    description: str(o, 'description', at),
    url: str(o, 'url', at),
    imageUrl: nullableStr(o, 'imageUrl', at),
    shipsTo: list(o, 'shipsTo', at).map((c, i) => {
      if (typeof c !== 'string') throw new ShapeError(`${at}.shipsTo[${i}] is not a string`);
      return c;
    }),
    variants,
    updatedAt: nullableStr(o, 'updatedAt', at),
  };
}

function readOrder(body: unknown, at = 'order'): SupplierOrderSnapshot {
  const o = asObj(body, at);
  const supplierStatus = str(o, 'status', at);
  const status = ORDER_STATUSES.find((s) => s === supplierStatus);
  if (!status) throw new ShapeError(`${at}.status is not a known status`);
  let costs: SupplierOrderSnapshot['costs'] = null;
  if (o.costs !== null && o.costs !== undefined) {
    const c = asObj(o.costs, `${at}.costs`);
    const cAt = `${at}.costs`;
    costs = { itemsMinor: int(c, 'itemsMinor', cAt), shippingMinor: int(c, 'shippingMinor', cAt), totalMinor: int(c, 'totalMinor', cAt), currency: str(c, 'currency', cAt) };
  }
  let shipping: SupplierOrderSnapshot['shipping'] = null;
  if (o.shipping !== null && o.shipping !== undefined) {
    const sAt = `${at}.shipping`;
    const s = asObj(o.shipping, sAt);
    shipping = { carrier: str(s, 'carrier', sAt), trackingNumber: str(s, 'trackingNumber', sAt), shippedAt: nullableStr(s, 'shippedAt', sAt) };
  }
  return { supplierOrderId: str(o, 'id', at), orderNumber: str(o, 'orderNumber', at), supplierStatus, status, paid: bool(o, 'paid', at), costs, shipping };
}

// ---- HTTP ----

interface Call {
  method: 'GET' | 'POST' | 'PUT';
  /** Already encoded; also names the call in messages, so it must hold no secret. */
  path: string;
  query?: Record<string, string | undefined>;
  token?: string;
  body?: unknown;
  timeoutMs: number;
  /** Values to scrub from any message built from the supplier's answer. */
  secrets: string[];
}

interface Answer {
  status: number;
  /** Parsed JSON, or undefined when the body was empty or not JSON. */
  body: unknown;
  label: string;
  secrets: string[];
}

function scrub(message: string, secrets: string[]): string {
  let out = message;
  // Short values would blank out ordinary words; real keys and secrets are long.
  for (const secret of secrets) if (secret.length >= 6) out = out.split(secret).join('[redacted]');
  return out.length > MAX_MESSAGE_LENGTH ? `${out.slice(0, MAX_MESSAGE_LENGTH)}...` : out;
}

function timeoutOf(ms: number): number {
  return Number.isFinite(ms) && ms >= 1 ? Math.floor(ms) : 1;
}


function transportFailure(err: unknown, label: string, timeoutMs: number): SupplierError {
  const name = err && typeof err === 'object' ? (err as { name?: unknown }).name : undefined;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new SupplierError('timeout', `Sandbox supplier did not answer ${label} within ${timeoutMs} ms`);
  }
  const code = networkErrorCode(err);
  return new SupplierError('unavailable', `Could not reach the sandbox supplier for ${label} (${code ?? 'network error'})`);
}


class SandboxHttp {
  private readonly baseUrl: string;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  url(path: string): string {
    return this.baseUrl + path;
  }

  /** Answers any HTTP status; throws only when no answer arrived (or it could not be read). Never retries. */
  async send(call: Call): Promise<Answer> {
    const label = `${call.method} ${call.path}`;
    const timeoutMs = timeoutOf(call.timeoutMs);
    const url = new URL(this.url(call.path));
    for (const [key, value] of Object.entries(call.query ?? {})) if (value !== undefined) url.searchParams.set(key, value);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (call.token !== undefined) headers.authorization = `Bearer ${call.token}`;
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    try {
      const res = await fetch(url, {
        method: call.method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: AbortSignal.timeout(timeoutMs),
        // A redirect would carry the bearer token somewhere we did not choose.
        redirect: 'manual',
      });
      const text = await readCapped(res, `Sandbox supplier answer to ${label}`);
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      return { status: res.status, body, label, secrets: call.secrets };
    } catch (err) {
      if (err instanceof SupplierError) throw err;
      throw transportFailure(err, label, timeoutMs);
    }
  }
}

interface SupplierErrorBody {
  code: string | undefined;
  message: string;
  extra: Obj;
}

function errorBody(answer: Answer): SupplierErrorBody {
  const outer = answer.body && typeof answer.body === 'object' ? (answer.body as Obj).error : undefined;
  const e = outer && typeof outer === 'object' && !Array.isArray(outer) ? (outer as Obj) : {};
  const code = typeof e.code === 'string' ? e.code : undefined;
  const raw = typeof e.message === 'string' && e.message ? e.message : `HTTP ${answer.status}`;
  return { code, message: scrub(raw, answer.secrets), extra: e };
}

/** The mapping shared by every call; codes are unique per meaning, so one table serves all routes. */
function failureOf(answer: Answer, notFoundSubject?: Record<string, string>): SupplierError {
  const { status, label } = answer;
  const { code, message, extra } = errorBody(answer);
  const said = `Sandbox supplier refused ${label}: ${message}`;
  if (status >= 500) return new SupplierError('unavailable', `Sandbox supplier failed ${label} (HTTP ${status}${code ? ` ${code}` : ''})`);
  if (status === 429) return new SupplierError('unavailable', `Sandbox supplier is rate limiting ${label}`);
  if (status >= 300 && status < 400) return new SupplierError('unavailable', `Sandbox supplier answered ${label} with an unexpected redirect (HTTP ${status})`);
  if (status === 401) return new SupplierError('credentialsRejected', `Sandbox supplier rejected the credentials: ${message}`);
  if (status === 404) return new SupplierError('notFound', `Sandbox supplier has no such resource for ${label}: ${message}`, notFoundSubject);
  if (status === 402) return new SupplierError('insufficientBalance', `Sandbox supplier balance is too low: ${message}`);
  switch (code) {
    case 'variantUnavailable': {
      const variantId = typeof extra.variantId === 'string' ? extra.variantId : undefined;
      return new SupplierError('variantUnavailable', message, variantId ? { variantId } : undefined);
    }
    case 'destinationUnsupported':
      return new SupplierError('destinationUnsupported', message);
    case 'orderNumberExists': {
      const orderId = typeof extra.orderId === 'string' ? extra.orderId : undefined;
      return new SupplierError('orderNumberExists', message, orderId ? { supplierOrderId: orderId } : undefined);
    }
    case 'alreadyPaid':
      return new SupplierError('alreadyPaid', message);
    case 'alreadyShipped':
      return new SupplierError('alreadyShipped', message);
    case 'orderRefused':
      // The supplier's own words are what the merchant needs to see.
      return new SupplierError('refused', message);
    default:
      // orderCancelled, invalidRequest and any other 4xx: the supplier will not do it as asked.
      return new SupplierError('refused', said);
  }
}

function okBody<T>(answer: Answer, read: (body: unknown) => T, notFoundSubject?: Record<string, string>): T {
  if (answer.status < 200 || answer.status >= 300) throw failureOf(answer, notFoundSubject);
  try {
    return read(answer.body);
  } catch (err) {
    const what = err instanceof ShapeError ? err.message : 'unreadable body';
    throw new SupplierError('unavailable', `Sandbox supplier answered ${answer.label} with an unexpected body (${what})`);
  }
}

function secretsOf(ctx: SupplierCallContext): string[] {
  return Object.values(ctx.credentials).filter((v): v is string => typeof v === 'string' && v !== '');
}

// ---- notifications ----

function parseSignature(header: string): { t: number; signatures: Buffer[] } | null {
  let t: number | undefined;
  const signatures: Buffer[] = [];
  for (const piece of header.split(',')) {
    const eq = piece.indexOf('=');
    if (eq <= 0) continue;
    const key = piece.slice(0, eq).trim();
    const value = piece.slice(eq + 1).trim();
    if (key === 't') {
      if (t !== undefined || !/^\d{1,12}$/.test(value)) return null;
      t = Number(value);
    } else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) {
      signatures.push(Buffer.from(value, 'hex'));
    }
  }
  return t === undefined || signatures.length === 0 ? null : { t, signatures };
}

function readNotification(secret: string | undefined, input: { rawBody: string; headers: Record<string, string | undefined>; now: Date }): VerifiedNotification | null {
  if (!secret) return null;
  const header = input.headers[SIGNATURE_HEADER];
  if (typeof header !== 'string' || header.length > 1024) return null;
  const parsed = parseSignature(header);
  if (!parsed) return null;
  const nowSeconds = input.now.getTime() / 1000;
  // Outside the window a captured notification could be replayed.
  if (!Number.isFinite(nowSeconds) || Math.abs(nowSeconds - parsed.t) > SIGNATURE_TOLERANCE_SECONDS) return null;
  const expected = createHmac('sha256', secret).update(`${parsed.t}.${input.rawBody}`, 'utf8').digest();
  const matches = parsed.signatures.some((given) => given.length === expected.length && timingSafeEqual(given, expected));
  if (!matches) return null;

  const event: unknown = JSON.parse(input.rawBody);
  if (!event || typeof event !== 'object' || Array.isArray(event)) return null;
  const { id, type, data } = event as Obj;
  if (typeof type !== 'string' || !data || typeof data !== 'object' || Array.isArray(data)) return null;
  const eventId = typeof id === 'string' && id ? id : null;
  const d = data as Obj;
  if (type === 'order.updated') {
    if (typeof d.orderId !== 'string' || d.orderId === '') return null;
    return { eventId, subjects: [{ kind: 'order', supplierOrderId: d.orderId, ...(typeof d.orderNumber === 'string' ? { orderNumber: d.orderNumber } : {}) }] };
  }
  if (type === 'product.updated') {
    if (typeof d.productId !== 'string' || d.productId === '') return null;
    return { eventId, subjects: [{ kind: 'product', supplierProductId: d.productId }] };
  }
  return null;
}

// ---- adapters ----

const CAPABILITIES: SupplierCapabilities = {
  authKind: 'apiKey',
  hasSandbox: true,
  balance: true,
  cancel: true,
  notifications: true,
  payment: 'balance',
  syncFields: ['cost', 'price', 'stock', 'title', 'availability'],
};

function settingsSchema(): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      shippingSpeed: { type: 'string', enum: ['standard', 'express'], default: 'standard' },
      orderNotePrefix: { type: 'string', maxLength: 40 },
    },
    additionalProperties: false,
  };
}

const API_KEY_ENTRY: CatalogueEntry = {
  key: 'sandbox',
  name: 'Sandbox Supplier',
  description: 'The fake supplier that ships with Store Suppliers, for trying the service end to end. Connect with an sbx_live_ or sbx_test_ API key.',
  capabilities: CAPABILITIES,
  settingsSchema: settingsSchema(),
  defaultSettings: { shippingSpeed: 'standard', orderNotePrefix: '' },
  credentialsSchema: {
    type: 'object',
    properties: { apiKey: { type: 'string', pattern: '^sbx_(live|test)_[A-Za-z0-9_]+$', maxLength: 200 } },
    required: ['apiKey'],
    additionalProperties: false,
  },
};

const SIGN_IN_ENTRY: CatalogueEntry = {
  key: 'sandbox-signin',
  name: 'Sandbox Supplier (sign-in)',
  description: 'The sandbox supplier connected by signing in to it instead of pasting a key. Sign-in tokens act in its live environment.',
  // No test environment and no balance through the API: the catalogue shows suppliers that differ.
  capabilities: { ...CAPABILITIES, syncFields: [...CAPABILITIES.syncFields], authKind: 'signIn', hasSandbox: false, balance: false },
  settingsSchema: settingsSchema(),
  defaultSettings: { shippingSpeed: 'standard', orderNotePrefix: '' },
  // Sign-in only: nothing may be connected by pasting credentials.
  credentialsSchema: { type: 'object', properties: {}, additionalProperties: false },
};

/** The sandbox keeps one notification address per account and environment; key and sign-in connections reach the same one. */
function verifiedAccount(account: { accountId: string; environment: string }): VerifiedAccount {
  return { accountLabel: `${account.accountId} (${account.environment})`, accountId: `sandbox:${account.accountId}:${account.environment}` };
}

abstract class SandboxAdapterBase implements SupplierAdapter {
  abstract readonly entry: CatalogueEntry;
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

  protected send(ctx: SupplierCallContext, call: Omit<Call, 'token' | 'timeoutMs' | 'secrets'>): Promise<Answer> {
    return this.http.send({ ...call, token: this.token(ctx), timeoutMs: ctx.timeoutMs, secrets: secretsOf(ctx) });
  }

  protected async account(ctx: SupplierCallContext): Promise<ReturnType<typeof readAccount>> {
    return okBody(await this.send(ctx, { method: 'GET', path: '/v1/account' }), readAccount);
  }

  async healthCheck(ctx: SupplierCallContext): Promise<HealthResult> {
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    try {
      const { accountLabel } = await this.verifyCredentials(ctx);
      return { ok: true, latencyMs: latency(), message: `Connected as ${accountLabel}` };
    } catch (err) {
      // SupplierError messages are already scrubbed; anything else is a bug whose text we do not trust.
      const message = err instanceof SupplierError ? err.message : 'Unexpected error while checking the sandbox supplier';
      return { ok: false, latencyMs: latency(), message };
    }
  }

  async getBalance(ctx: SupplierCallContext): Promise<Money> {
    const account = await this.account(ctx);
    return { amountMinor: account.balanceMinor, currency: account.currency };
  }

  async searchProducts(ctx: SupplierCallContext, q: { query?: string; cursor?: string; pageSize: number }): Promise<ProductSearchPage> {
    let page = 1;
    if (q.cursor !== undefined) {
      if (!/^[1-9]\d{0,8}$/.test(q.cursor)) throw new SupplierError('refused', 'Not a cursor this supplier gave out');
      page = Number(q.cursor);
    }
    const pageSize = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(q.pageSize) || 1));
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
    const answer = await this.send(ctx, { method: 'GET', path: `/v1/products/${encodeURIComponent(supplierProductId)}` });
    return okBody(answer, (body) => readProduct(body), { productId: supplierProductId });
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

  async createOrder(ctx: SupplierCallContext, input: CreateOrderInput): Promise<SupplierOrderSnapshot> {
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
    };
    // Never retried here: after a timeout the order may exist, and the caller looks it up by number.
    const answer = await this.send(ctx, { method: 'POST', path: '/v1/orders', body });
    return okBody(answer, (b) => readOrder(b));
  }

  async getOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
    const answer = await this.send(ctx, { method: 'GET', path: `/v1/orders/${encodeURIComponent(supplierOrderId)}` });
    return okBody(answer, (b) => readOrder(b), { supplierOrderId });
  }

  async payOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
    const answer = await this.send(ctx, { method: 'POST', path: `/v1/orders/${encodeURIComponent(supplierOrderId)}/pay` });
    return okBody(answer, (b) => readOrder(b), { supplierOrderId });
  }

  async cancelOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
    const answer = await this.send(ctx, { method: 'POST', path: `/v1/orders/${encodeURIComponent(supplierOrderId)}/cancel` });
    return okBody(answer, (b) => readOrder(b), { supplierOrderId });
  }

  verifyNotification(ctx: SupplierCallContext, input: { rawBody: string; headers: Record<string, string | undefined>; now: Date }): VerifiedNotification | null {
    try {
      return readNotification(ctx.credentials.signingSecret, input);
    } catch {
      // Every refusal looks the same to the caller, including a body that is not JSON.
      return null;
    }
  }
}

class SandboxApiKeyAdapter extends SandboxAdapterBase {
  readonly entry = API_KEY_ENTRY;
  protected readonly tokenField = 'apiKey';

  async verifyCredentials(ctx: SupplierCallContext): Promise<VerifiedAccount> {
    const account = await this.account(ctx);
    // A live key on a test connection would place real orders; the reverse would never fulfil any.
    if (account.environment !== ctx.mode) {
      const need = ctx.mode === 'test' ? 'a test key (sbx_test_...)' : 'a live key (sbx_live_...)';
      throw new SupplierError('credentialsRejected', `This is a ${account.environment} key; a ${ctx.mode} connection needs ${need}`);
    }
    return verifiedAccount(account);
  }
}

class SandboxSignInAdapter extends SandboxAdapterBase {
  readonly entry = SIGN_IN_ENTRY;
  protected readonly tokenField = 'accessToken';

  constructor(
    http: SandboxHttp,
    private readonly clientId: string,
  ) {
    super(http);
  }

  async verifyCredentials(ctx: SupplierCallContext): Promise<VerifiedAccount> {
    return verifiedAccount(await this.account(ctx));
  }

  signInUrl(input: { state: string; redirectUri: string; mode: ConnectionMode }): string {
    const q = [`client_id=${encodeURIComponent(this.clientId)}`, `redirect_uri=${encodeURIComponent(input.redirectUri)}`, `state=${encodeURIComponent(input.state)}`];
    return `${this.http.url('/oauth/authorize')}?${q.join('&')}`;
  }

  async exchangeSignInCode(input: { code: string; redirectUri: string; timeoutMs: number }): Promise<Record<string, string>> {
    const answer = await this.http.send({
      method: 'POST',
      path: '/oauth/token',
      body: { grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri, client_id: this.clientId },
      timeoutMs: input.timeoutMs,
      secrets: [input.code],
    });
    if (answer.status === 400) {
      const { code, message } = errorBody(answer);
      throw new SupplierError('credentialsRejected', `Sandbox supplier refused the sign-in code (${code ?? 'HTTP 400'}): ${message}`);
    }
    return okBody(answer, (body) => {
      const o = asObj(body, 'token');
      const accessToken = str(o, 'access_token', 'token');
      if (!TOKEN_SHAPE.test(accessToken)) throw new ShapeError('token.access_token is not a usable token');
      return { accessToken, accountId: str(o, 'account_id', 'token') };
    });
  }
}

export function createSandboxAdapters(opts: { baseUrl: string; oauthClientId?: string }): SupplierAdapter[] {
  const http = new SandboxHttp(opts.baseUrl);
  return [new SandboxApiKeyAdapter(http), new SandboxSignInAdapter(http, opts.oauthClientId ?? 'store-suppliers')];
}
