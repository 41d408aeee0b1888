/**
 * The CJ Dropshipping adapter, over CJ API 2.0 (docs/suppliers/cj.md): calls through client.ts (requests by http.ts,
 * tokens by session.ts), the catalogue in products.ts, orders in orders.ts, answers read by readers.ts, notifications
 * by signature.ts. Every failure leaves as a SupplierError whose message carries no key, token or account id.
 */
import { createHash } from 'node:crypto';
import { catalogueEntry } from '../adapter';
import type {
  CallLimits,
  CatalogueEntry,
  ClaimInput,
  ClaimLine,
  ClaimTerms,
  HealthResult,
  SupplierClaimSnapshot,
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
import { asObj } from '../http';
import { callSpacingMs, CjClient } from './client';
import { CJ_DESCRIPTION } from './description';
import { cancelOrder, createOrder, findOrderByNumber, orderDetail, payOrder, quoteShipping } from './orders';
import { cancelDispute, claimTerms, findDispute, getDispute, openDispute } from './disputes';
import { trackInfo } from './tracking';
import { getProduct, searchProducts, VariantMemory } from './products';
import { cents, CURRENCY, snapshotOf } from './readers';
import { accountKeyOf, type TokenKeeper } from './session';
import { readNotification } from './signature';
import { cjProductIdFromUrl } from './urls';

export interface CjAdapterOptions {
  baseUrl: string;
  /** Least time between two key exchanges of one account (CJ: 5 minutes). For tests. */
  tokenExchangeIntervalMs?: number;
  /** Most token refreshes per account in a minute (CJ: 5). */
  refreshesPerMinute?: number;
}

export class CjAdapter implements SupplierAdapter {
  readonly entry: CatalogueEntry = CJ_ENTRY;
  /** CJ allows 1 to 6 requests a second per account by its level (settings.requestsPerSecond, default 1). */
  readonly limits: CallLimits = {
    callsInFlight: 2,
    callSpacingMs,
    // CJ counts per account: every connection (and the connect-time checks) on one API key shares the rate.
    rateKey: (credentials) => (typeof credentials.apiKey === 'string' ? `cj:${accountKeyOf(credentials.apiKey)}` : null),
  };
  private readonly client: CjClient;
  readonly findOrderByNumber: LentOrderCalls['findOrderByNumber'];
  readonly quoteShipping: LentOrderCalls['quoteShipping'];
  readonly createOrder: LentOrderCalls['createOrder'];
  /** The access tokens this process keeps per account (session.ts). */
  readonly tokens: TokenKeeper;
  private readonly variants = new VariantMemory();

  constructor(opts: CjAdapterOptions) {
    this.client = new CjClient(opts.baseUrl, { exchangeIntervalMs: opts.tokenExchangeIntervalMs ?? 300_000, refreshesPerMinute: opts.refreshesPerMinute ?? 5 });
    ({
      findOrderByNumber: this.findOrderByNumber,
      quoteShipping: this.quoteShipping,
      createOrder: this.createOrder,
    } = lendClient(this.client, { findOrderByNumber, quoteShipping, createOrder }));
    this.tokens = this.client.tokens;
  }

  // ---- account

  async verifyCredentials(ctx: SupplierCallContext): Promise<VerifiedAccount> {
    const apiKey = this.client.apiKey(ctx);
    // The exchange proves the key; reading the balance proves the token works for the calls we make.
    await this.getBalance(ctx);
    const { openId } = await this.tokens.get(ctx, apiKey);
    // Never the openId itself: it is the key notifications are signed with. Its digest still tells accounts apart.
    return { accountLabel: `CJ account (API key ending ${apiKey.slice(-4)})`, accountId: `cj:${createHash('sha256').update(openId).digest('hex')}` };
  }

  healthCheck(ctx: SupplierCallContext): Promise<HealthResult> {
    return healthFrom(() => this.verifyCredentials(ctx), 'Unexpected error while checking CJ');
  }

  async getBalance(ctx: SupplierCallContext): Promise<Money> {
    const answer = await this.client.request(ctx, { method: 'GET', path: '/shopping/pay/getBalance' }, 'other');
    return this.client.read(answer, (data) => ({ amountMinor: cents(asObj(data, 'balance').amount, 'balance.amount'), currency: CURRENCY }));
  }

  // ---- products

  searchProducts(ctx: SupplierCallContext, q: { query?: string; cursor?: string; pageSize: number }): Promise<ProductSearchPage> {
    return searchProducts(this.client, ctx, q);
  }

  getProduct(ctx: SupplierCallContext, supplierProductId: string): Promise<SupplierProduct> {
    return getProduct(this.client, ctx, supplierProductId, this.variants);
  }

  resolveProductUrl(url: URL): string | null {
    return cjProductIdFromUrl(url);
  }

  // ---- notifications

  async registerNotificationAddress(ctx: SupplierCallContext, url: string): Promise<Record<string, string>> {
    const topic = { type: 'ENABLE', callbackUrls: [url] };
    const apiKey = this.client.apiKey(ctx);
    try {
      // The registration key is plural `logistics`; deliveries say LOGISTIC.
      await this.client.request(ctx, { method: 'POST', path: '/webhook/set', body: { product: topic, stock: topic, order: topic, logistics: topic } }, 'other');
    } catch (err) {
      // 1606000 "already set": CJ keeps the address it has. Other refusals name what CJ disliked about the address.
      if (!(err instanceof SupplierError && err.kind === 'refused' && /\(1606000\)/.test(err.message))) throw err;
    }
    const tokens = await this.tokens.get(ctx, apiKey);
    // Notifications are signed with the account's openId; it is kept with the tokens.
    return { openId: tokens.openId };
  }

  verifyNotification(
    ctx: SupplierCallContext,
    input: { rawBody: string; headers: Record<string, string | undefined>; now: Date },
  ): VerifiedNotification | null {
    try {
      return readNotification(ctx.credentials.openId, input, (vid) => this.variants.productOfVariant(vid));
    } catch {
      // Every refusal looks the same to the caller, including a body that is not JSON.
      return null;
    }
  }

  // ---- orders

  /** With the parcel's tracking once it shipped (./tracking.ts), and when CJ says it was paid. */
  async getOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
    const order = snapshotOf(await orderDetail(this.client, ctx, supplierOrderId));
    const tracking =
      order.shipping && (order.status === 'shipped' || order.status === 'delivered')
        ? await trackInfo(this.client, ctx, order.shipping.trackingNumber)
        : undefined;
    return tracking ? { ...order, tracking } : order;
  }

  // ---- disputes (./disputes.ts)

  claimTerms(ctx: SupplierCallContext, supplierOrderId: string, lines: ClaimLine[]): Promise<ClaimTerms> {
    return claimTerms(this.client, ctx, supplierOrderId, lines);
  }

  openClaim(ctx: SupplierCallContext, input: ClaimInput): Promise<SupplierClaimSnapshot> {
    return openDispute(this.client, ctx, input);
  }

  findClaim(ctx: SupplierCallContext, supplierOrderId: string, claimKey: string): Promise<SupplierClaimSnapshot | null> {
    return findDispute(this.client, ctx, supplierOrderId, claimKey);
  }

  getClaim(ctx: SupplierCallContext, supplierOrderId: string, disputeId: string): Promise<SupplierClaimSnapshot> {
    return getDispute(this.client, ctx, supplierOrderId, disputeId);
  }

  cancelClaim(ctx: SupplierCallContext, supplierOrderId: string, disputeId: string): Promise<SupplierClaimSnapshot> {
    return cancelDispute(this.client, ctx, supplierOrderId, disputeId);
  }

  payOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
    return payOrder(this.client, ctx, supplierOrderId);
  }

  cancelOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
    return cancelOrder(this.client, ctx, supplierOrderId);
  }
}

export const CJ_ENTRY: CatalogueEntry = catalogueEntry(CJ_DESCRIPTION, CjAdapter.prototype);

export function createCjAdapter(opts: CjAdapterOptions): CjAdapter {
  return new CjAdapter(opts);
}
