/**
 * Adapters for the sandbox supplier (docs/suppliers/sandbox.md): an API-key entry and a sign-in entry over one HTTP
 * client (http.ts), its JSON read by readers.ts and its notifications by signature.ts. Every failure leaves as a
 * SupplierError whose message carries no secret.
 */
import { catalogueEntry } from '../adapter';
import type { CallLimits, CatalogueEntry, ClaimInput, ClaimLine, ConnectionMode, HealthResult, Money, ProductSearchPage, ShippingQuote, SupplierAdapter, SupplierCallContext, SupplierOrderInput, SupplierOrderSnapshot, SupplierProduct, VerifiedAccount, VerifiedNotification } from '../adapter';
import { SupplierError } from '../errors';
import { healthFrom } from '../health';
import { asObj, secretsOf, ShapeError } from '../http';
import { pageOfCursor, pageSizeWithin } from '../paging';
import { Answer, Call, errorBody, okBody, SandboxHttp, segment } from './http';
import { int, list, readAccount, readOrder, readProduct, readSignInToken, str, TOKEN_SHAPE } from './readers';
import { sandboxClaims } from './claims';
import { API_KEY_DESCRIPTION, EU_DESCRIPTION, SIGN_IN_DESCRIPTION } from './description';
import { readNotification } from './signature';

const PRODUCT_HOST = 'shop.sandbox-supplier.test';
const PRODUCT_PATH = /^\/p\/(SBX-P\d+)\/?$/;
const MAX_PAGE_SIZE = 100;
/** The sandbox names no last page; nine digits bound the cursor. */
const MAX_PAGE = 999_999_999;


/** The sandbox documents no limit; the operator can set one to rehearse a supplier that has. */
export interface SandboxLimits {
  callsInFlight?: number;
  requestsPerSecond?: number;
}

/** The sandbox keeps one notification address per account and environment; key and sign-in connections reach the same one. */
function verifiedAccount(account: { accountId: string; environment: string }): VerifiedAccount {
  return { accountLabel: `${account.accountId} (${account.environment})`, accountId: `sandbox:${account.accountId}:${account.environment}` };
}

abstract class SandboxAdapterBase implements SupplierAdapter {
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
    const answer = await this.send(ctx, { method: 'POST', path: '/v1/shipping/quote', body: { items: input.items.map((i) => ({ variantId: i.variantId, quantity: i.quantity })), country: input.destination.country } });
    return okBody(answer, (body) => {
      const o = asObj(body, 'quote');
      return { service: str(o, 'service', 'quote'), cost: { amountMinor: int(o, 'costMinor', 'quote'), currency: str(o, 'currency', 'quote') }, maxDays: Number.isInteger(o.maxDays) ? Number(o.maxDays) : null };
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
  readonly entry: CatalogueEntry;
  protected readonly tokenField = 'apiKey';

  constructor(http: SandboxHttp, description = API_KEY_DESCRIPTION) {
    super(http);
    this.entry = catalogueEntry(description, this);
  }

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
  readonly entry: CatalogueEntry = catalogueEntry(SIGN_IN_DESCRIPTION, this);
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
    return okBody(answer, readSignInToken);
  }
}

/** `secondWarehouse`: also the program's `/eu` identity, a supplier of its own (`sandbox-eu`) through the same adapter. */
export function createSandboxAdapters(opts: { baseUrl: string; oauthClientId?: string; limits?: SandboxLimits; secondWarehouse?: boolean }): SupplierAdapter[] {
  const http = new SandboxHttp(opts.baseUrl);
  const rps = opts.limits?.requestsPerSecond ?? 0;
  const limits: CallLimits = { callsInFlight: opts.limits?.callsInFlight ?? 20, callSpacingMs: () => (rps > 0 ? Math.ceil(1000 / rps) : null) };
  const adapters: SandboxAdapterBase[] = [new SandboxApiKeyAdapter(http), new SandboxSignInAdapter(http, opts.oauthClientId ?? 'store-suppliers')];
  if (opts.secondWarehouse) adapters.push(new SandboxApiKeyAdapter(new SandboxHttp(`${opts.baseUrl.replace(/\/+$/, '')}/eu`), EU_DESCRIPTION));
  for (const a of adapters) a.limits = limits;
  return adapters;
}
