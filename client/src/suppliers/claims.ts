import type { Transport } from '../transport.js';
import type { Api, Claim, RequestOptions } from '../types.js';

/**
 * Claims with the supplier on a shipped supplier order: a refund or a reship. Where the supplier has a claims API the
 * service sends the claim once (under its `_id`) and follows it until the supplier decides (`status` sending, open,
 * closed with its `outcome`); elsewhere a person sends it (`withPerson`, with `deadline` and `evidencePack`) and records
 * the outcome with `recordOutcome`. A second claim on the same items is ApiError claimExists (409).
 */
export class Claims {
  constructor(private readonly t: Transport) {}

  async open(storeId: string, supplierOrderId: string, body: Api.OpenSupplierClaim['body'], options?: RequestOptions): Promise<Claim> {
    return (await this.t.call('openSupplierClaim', { params: { storeId, supplierOrderId }, body }, options)).result;
  }

  /** The supplier order's claims, oldest first. */
  async list(storeId: string, supplierOrderId: string, options?: RequestOptions): Promise<Claim[]> {
    return (await this.t.call('listSupplierClaims', { params: { storeId, supplierOrderId } }, options)).result.items;
  }

  async get(storeId: string, supplierOrderId: string, claimId: string, options?: RequestOptions): Promise<Claim> {
    return (await this.t.call('getSupplierClaim', { params: { storeId, supplierOrderId, claimId } }, options)).result;
  }

  /** A person's claim: what the supplier decided (refunded with its amount, reshipped, or rejected with its words). */
  async recordOutcome(
    storeId: string,
    supplierOrderId: string,
    claimId: string,
    body: Api.RecordSupplierClaimOutcome['body'],
    options?: RequestOptions,
  ): Promise<Claim> {
    return (await this.t.call('recordSupplierClaimOutcome', { params: { storeId, supplierOrderId, claimId }, body }, options)).result;
  }

  /** Withdraws a claim: a person's at once, one sent where the supplier allows it (ApiError claimNotCancellable where not). */
  async cancel(storeId: string, supplierOrderId: string, claimId: string, options?: RequestOptions): Promise<Claim> {
    return (await this.t.call('cancelSupplierClaim', { params: { storeId, supplierOrderId, claimId } }, options)).result;
  }
}
