/**
 * The AliExpress Dropshipping adapter (docs/suppliers/aliexpress.md): signed calls through client.ts (over http.ts),
 * the sign-in in tokens.ts, the catalogue in products.ts, answers read by readers.ts and orders.ts, codes mapped by
 * codes.ts, orders placed by placing.ts and read back by reading.ts. Every failure leaves as a SupplierError whose
 * message carries no token or secret.
 */
import { catalogueEntry } from '../adapter';
import type {
  CallLimits,
  CatalogueEntry,
  ConnectionMode,
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
import { AeClient } from './client';
import { refusalOf } from './codes';
import { ALIEXPRESS_DESCRIPTION, DEFAULT_REQUESTS_PER_SECOND, setting } from './description';
import type { AeApp } from './http';
import { placeOrder, quoteShipping } from './placing';
import { productFor, search, searchProducts } from './products';
import { findByNumber, readOrders } from './reading';
import { readTokenAnswer, renewable, renewalTime, storedTokens, tokenFields } from './tokens';

const PRODUCT_HOST = /^(?:[a-z]{2,3}\.|www\.|m\.)?aliexpress\.(?:com|us)$/;
const PRODUCT_PATH = /^\/(?:item|i)\/(\d{6,30})\.html$/;

export interface AliExpressAdapterOptions {
  app: AeApp;
  /** How long an ApiCallLimit ban lasts before the call is made again (AliExpress: 1 s). For tests. */
  callLimitWaitMs?: number;
}

function requestsPerSecond(settings: Record<string, unknown>): number {
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
  private readonly client: AeClient;
  readonly findOrderByNumber: LentOrderCalls['findOrderByNumber'];
  readonly quoteShipping: LentOrderCalls['quoteShipping'];
  readonly createOrder: LentOrderCalls['createOrder'];

  constructor(opts: AliExpressAdapterOptions) {
    this.client = new AeClient(opts.app, opts.callLimitWaitMs ?? 1000);
    ({
      findOrderByNumber: this.findOrderByNumber,
      quoteShipping: this.quoteShipping,
      createOrder: this.createOrder,
    } = lendClient(this.client, { findOrderByNumber: findByNumber, quoteShipping, createOrder: placeOrder }));
  }

  // ---- sign-in

  signInUrl(input: { state: string; redirectUri: string; mode: ConnectionMode }): string {
    const q = new URLSearchParams({
      response_type: 'code',
      force_auth: 'true',
      redirect_uri: input.redirectUri,
      client_id: this.client.http.app.appKey,
      state: input.state,
    });
    return `${this.client.http.baseUrl}/oauth/authorize?${q.toString()}`;
  }

  async exchangeSignInCode(input: { code: string; redirectUri: string; timeoutMs: number }): Promise<Record<string, string>> {
    const answer = await this.client.http.system(
      '/auth/token/create',
      { code: input.code },
      { timeoutMs: input.timeoutMs, secrets: [input.code, this.client.http.app.appSecret] },
    );
    if (!answer.ok) throw refusalOf(answer.refusal, 'auth');
    return tokenFields(this.client.read('/auth/token/create', () => readTokenAnswer(answer.body, Date.now())));
  }

  credentialsRenewAt(credentials: Record<string, string>): Date | null {
    const t = storedTokens(credentials);
    return t ? renewalTime(t) : null;
  }

  async renewCredentials(ctx: SupplierCallContext): Promise<Record<string, string>> {
    const current = this.client.tokens(ctx);
    if (!renewable(current, Date.now()))
      throw new SupplierError(
        'credentialsRejected',
        'The AliExpress sign-in cannot be renewed (AliExpress gave no refresh token, or it ended); sign in to AliExpress again',
      );
    await ctx.pace?.();
    const answer = await this.client.http.system(
      '/auth/token/refresh',
      { refresh_token: current.refreshToken },
      { timeoutMs: ctx.timeoutMs, secrets: this.client.secrets(ctx) },
    );
    if (!answer.ok) throw refusalOf(answer.refusal, 'auth');
    return tokenFields(this.client.read('/auth/token/refresh', () => readTokenAnswer(answer.body, Date.now(), current)));
  }

  // ---- account

  async verifyCredentials(ctx: SupplierCallContext): Promise<VerifiedAccount> {
    const t = this.client.tokens(ctx);
    if (Date.now() >= t.accessTokenExpiresAt) throw new SupplierError('credentialsRejected', 'The AliExpress sign-in has ended; sign in to AliExpress again');
    // One cheap signed call proves the token and the app's signature.
    await search(this.client, ctx, undefined, 1, 1);
    return { accountLabel: `AliExpress buyer ${t.userNick}`, accountId: `aliexpress:${t.userId}` };
  }

  healthCheck(ctx: SupplierCallContext): Promise<HealthResult> {
    return healthFrom(() => this.verifyCredentials(ctx), 'Unexpected error while checking AliExpress');
  }

  async getBalance(): Promise<Money> {
    throw new SupplierError('notSupported', 'AliExpress reports no balance: orders are paid from the buyer account as they are created');
  }

  // ---- products

  searchProducts(ctx: SupplierCallContext, q: { query?: string; cursor?: string; pageSize: number }): Promise<ProductSearchPage> {
    return searchProducts(this.client, ctx, q);
  }

  async getProduct(ctx: SupplierCallContext, supplierProductId: string): Promise<SupplierProduct> {
    return (await productFor(this.client, ctx, supplierProductId, setting(ctx, 'shipToCountry', 'US'), 'product')).product;
  }

  resolveProductUrl(url: URL): string | null {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    if (!PRODUCT_HOST.test(url.hostname) || url.port !== '' || url.username !== '' || url.password !== '') return null;
    return PRODUCT_PATH.exec(url.pathname)?.[1] ?? null;
  }

  // ---- orders

  /** AliExpress has no look-up by our number (`out_order_id`): only the ids it answered a create with, kept by the service. */
  readonly ordersFoundBy = 'memory' as const;

  getOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
    return readOrders(this.client, ctx, supplierOrderId);
  }

  /** AliExpress takes payment only as it creates an order (with automatic payment on); there is no payment call. */
  async payOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
    const now = await this.getOrder(ctx, supplierOrderId);
    if (now.paid) throw new SupplierError('alreadyPaid', 'AliExpress already has this order paid', { supplierOrderId });
    throw new SupplierError(
      'notSupported',
      "AliExpress takes payment only as it creates an order (with the connection's automatic payment on) and has no payment call: pay this order on aliexpress.com, then retry it here to read the payment back",
      { supplierOrderId },
    );
  }

  /** AliExpress has no cancel call: orders are cancelled on its website. */
  async cancelOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
    const now = await this.getOrder(ctx, supplierOrderId);
    if (now.status === 'cancelled') return now;
    if (now.status === 'shipped' || now.status === 'delivered')
      throw new SupplierError('alreadyShipped', 'AliExpress already shipped this order', { supplierOrderId });
    throw new SupplierError(
      'notSupported',
      'AliExpress has no cancel call: cancel this order on aliexpress.com (My orders), where the seller may still allow it',
      { supplierOrderId },
    );
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
