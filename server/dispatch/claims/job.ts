import type { DataSource } from 'typeorm';
import type { SupplierConnection, SupplierGateway } from '../../connections';
import type { MemberAccess } from '../../identity/owner-access';
import { ApiError } from '../../platform/errors';
import { failpoint } from '../../platform/failpoints';
import type { ClaimDecision, SupplierClaimSnapshot } from '../../suppliers/adapter';
import { SupplierError } from '../../suppliers/errors';
import type { ClaimQueue } from '../queues';
import type { SupplierOrderRecords } from '../records';
import { claimById, claimsDue, liveClaimsOf, moveClaim } from '../sql/claims';
import type { SupplierOrder } from '../supplier-order';
import { SYSTEM } from '../dispatch-event';
import type { ClaimOutcomes } from './outcome';
import type { Claim } from './types';

const SUPPLIER = { kind: 'supplier' as const, id: null };
/** A supplier's refusal of the claim itself (its words become the outcome); other errors pass and the job is retried. */
const REFUSALS = new Set(['refused', 'notFound', 'notSupported']);

/**
 * A claim's job (docs/decisions.md, "Claims with the supplier"), decided from the claim's row alone, so a re-run after
 * any crash finishes the work: a claim to send is first looked for by its own key (sent before a crash, it is found,
 * never sent twice), then sent on its creator's authority as it is now; an open one is read back until the supplier
 * decides, each decision applied once (./outcome.ts), the next look due after CLAIM_CHECK_SECONDS (the sweeper asks).
 */
export class ClaimJob {
  constructor(
    private readonly db: DataSource,
    private readonly records: SupplierOrderRecords,
    private readonly gateway: Pick<SupplierGateway, 'call'>,
    private readonly outcomes: ClaimOutcomes,
    private readonly queue: ClaimQueue,
    /** The creator's access to the store now (identity's), and whether the owner's plan still includes dropshipping. */
    private readonly access: MemberAccess,
    private readonly checkSeconds: number,
  ) {}

  async run(claimId: string, storeId: string): Promise<void> {
    for (let round = 0; round < 6; round++) {
      const claim = await claimById(this.db, storeId, claimId);
      if (!claim || claim.via !== 'api' || claim.status === 'closed' || claim.status === 'withPerson') return;
      try {
        if (!(await this.step(claim))) return;
      } catch (err) {
        if (err instanceof ApiError && err.code === 'claimChanged') continue;
        // Looked at again after the usual wait, not at every sweep (the queue retries this run sooner).
        await moveClaim(this.db, claim, { nextCheckAt: new Date(Date.now() + this.checkSeconds * 1000) }).catch(() => undefined);
        throw err;
      }
    }
  }

  /** The claims of a supplier order still at the supplier, asked again (a read-back of the order, after a notification). */
  async followUp(so: SupplierOrder): Promise<void> {
    if (so.status !== 'shipped' && so.status !== 'delivered' && so.status !== 'needsReview') return;
    for (const c of await liveClaimsOf(this.db, so.storeId, so.id)) await this.queue.request(c);
  }

  /** Open claims whose look came due and nothing asked (a lost job): the sweeper's. */
  async requeueDue(): Promise<number> {
    const due = await claimsDue(this.db, 200);
    for (const c of due) await this.queue.request(c);
    return due.length;
  }

  /** One step; true when another is due at once. */
  private async step(claim: Claim): Promise<boolean> {
    const so = await this.records.loadOrFail(claim.supplierOrderId, claim.storeId);
    const conn = await this.records.connection(claim.storeId, claim.connectionId);
    if (!conn || conn.disconnectedAt || !conn.credentialsSealed) {
      await this.outcomes.close(
        claim,
        {
          kind: 'stopped',
          message: 'The supplier connection was removed: the claim cannot be followed here any more.',
          at: new Date().toISOString(),
          by: SYSTEM,
        },
        SYSTEM,
      );
      return false;
    }
    return claim.status === 'sending' ? this.send(claim, so, conn) : this.follow(claim, so, conn);
  }

  private async send(claim: Claim, so: SupplierOrder, conn: SupplierConnection): Promise<boolean> {
    let sent = await this.gateway.call(conn, (a, ctx) => a.findClaim!(ctx, so.supplierOrderId!, claim.id));
    if (!sent && claim.cancelRequested) return this.closed(claim, { kind: 'cancelled' });
    if (!sent) {
      const ended = await this.authority(claim, false);
      if (ended) return this.closed(claim, { kind: 'stopped', message: ended });
      failpoint('dispatch.claimBeforeSend', claim.id);
      try {
        const input = {
          supplierOrderId: so.supplierOrderId!,
          claimKey: claim.id,
          reason: claim.reason,
          expectation: claim.expectation,
          lines: claim.items.map((i) => ({ variantId: i.supplierVariantId, quantity: i.quantity })),
          message: claim.message,
          evidence: claim.evidence,
        };
        sent = await this.gateway.call(conn, (a, ctx) => a.openClaim!(ctx, input));
      } catch (err) {
        if (!(err instanceof SupplierError) || !REFUSALS.has(err.kind)) throw err;
        return this.closed(claim, { kind: 'rejected', message: `The supplier refused the claim: ${err.message}` });
      }
      failpoint('dispatch.claimAfterSend', claim.id);
    }
    await this.outcomes.record(
      claim,
      { status: 'open', supplierClaimId: sent.supplierClaimId, supplierStatus: sent.supplierStatus, nextCheckAt: new Date() },
      'claimUpdated',
      SYSTEM,
    );
    return true;
  }

  private async follow(claim: Claim, so: SupplierOrder, conn: SupplierConnection): Promise<boolean> {
    const ref = [so.supplierOrderId!, claim.supplierClaimId!] as const;
    if (claim.cancelRequested) {
      const after = await this.gateway.call(conn, (a, ctx) => a.cancelClaim!(ctx, ...ref));
      if (after.status !== 'decided') return this.closed(claim, { kind: 'cancelled' });
    }
    const snap: SupplierClaimSnapshot = await this.gateway.call(conn, (a, ctx) => a.getClaim!(ctx, ...ref));
    if (snap.status === 'cancelled') return this.closed(claim, { kind: 'cancelled' });
    if (snap.status === 'decided' && snap.decision) return this.decided(claim, snap.decision, conn);
    const next = new Date(Date.now() + this.checkSeconds * 1000);
    if (snap.supplierStatus !== claim.supplierStatus)
      await this.outcomes.record(claim, { supplierStatus: snap.supplierStatus, nextCheckAt: next }, 'claimUpdated', SYSTEM);
    else await moveClaim(this.db, claim, { nextCheckAt: next });
    // The next look is the sweeper's once it is due (no delayed job: it would hold the claim's one waiting slot, and a
    // notification's read-back could not ask sooner).
    return false;
  }

  private async decided(claim: Claim, d: ClaimDecision, conn: SupplierConnection): Promise<boolean> {
    if (d.kind === 'refund') await this.outcomes.refunded(claim, d.amount, SUPPLIER);
    else if (d.kind === 'rejected') await this.closed(claim, { kind: 'rejected', message: d.message });
    else {
      // Placing the reship is acting on the claim's authority: its creator's, and the owner's plan, as they are now.
      const held = await this.authority(claim, true);
      const adopt = d.supplierOrderId && !held ? await this.gateway.call(conn, (a, ctx) => a.getOrder(ctx, d.supplierOrderId!)) : null;
      await this.outcomes.reshipped(claim, adopt, held ?? undefined);
    }
    return false;
  }

  private async closed(claim: Claim, o: { kind: 'cancelled' } | { kind: 'rejected' | 'stopped'; message: string }): Promise<boolean> {
    await this.outcomes.close(claim, { ...o, at: new Date().toISOString(), by: o.kind === 'stopped' ? SYSTEM : SUPPLIER }, SYSTEM);
    return false;
  }

  /** Why the claim may no longer act on its creator's authority (null: it may); `plan`: placing an order also needs dropshipping. */
  private async authority(claim: Claim, plan: boolean): Promise<string | null> {
    const now = await this.access(claim.storeId, claim.createdByAccountId, claim.createdByKeyId);
    if (!now) return 'Its creator is no longer a member of the store.';
    if (now.keyRevoked) return 'The API key that opened it was revoked.';
    if (!now.permissions.has('claims.manage')) return 'Its creator may no longer manage claims in this store.';
    if (plan && !now.dropshipping) return "The store owner's plan no longer includes dropshipping: no order is placed.";
    return null;
  }
}
