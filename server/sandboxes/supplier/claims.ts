import { randomBytes } from 'node:crypto';
import type { Caller } from './accounts';
import { ApiError, invalidRequest } from './errors';
import type { OrderRecord } from './orders';

export const CLAIM_REASONS = ['notReceived', 'damaged', 'wrongItem', 'missingItems', 'quality'] as const;
type ClaimStatus = 'open' | 'approved' | 'rejected' | 'cancelled';
export type ClaimOutcome = { kind: 'refund'; amountMinor: number; currency: string } | { kind: 'reship' } | { kind: 'rejected'; message: string };

export interface SandboxClaim {
  id: string;
  /** The merchant's own key for it: a second claim under the same key is refused, naming the first. */
  claimKey: string;
  orderId: string;
  accountId: string;
  reason: (typeof CLAIM_REASONS)[number];
  expectation: 'refund' | 'reship';
  lines: Array<{ variantId: string; quantity: number }>;
  message: string;
  evidence: string[];
  status: ClaimStatus;
  outcome: ClaimOutcome | null;
  createdAt: string;
  updatedAt: string;
}

const now = () => new Date().toISOString();
const live = (c: SandboxClaim) => c.status === 'open' || c.status === 'approved';

/**
 * Claims on shipped orders, as the sandbox takes them: terms first (how much of each line is still open to a claim, the
 * most it refunds), one claim per key, decided by a test through the control API (a refund credits the balance; a
 * reship is an order the merchant places naming the claim, which costs nothing). Replaced whole by a control reset.
 */
export class Claims {
  private readonly byId = new Map<string, SandboxClaim>();
  /** Every create asked for, by key (a repeated one is refused, and counted here all the same). */
  readonly opensByKey = new Map<string, number>();

  /** Each line's quantity still open to a claim (not in a live claim) and whether one may be opened on it now. */
  terms(record: OrderRecord, lines: Array<{ variantId: string; quantity: number }>) {
    const { order } = record;
    const claims = this.of(order.id);
    return {
      lines: lines.map((l) => {
        const item = order.items.find((i) => i.variantId === l.variantId);
        const claimed = claims
          .filter(live)
          .flatMap((c) => c.lines)
          .filter((x) => x.variantId === l.variantId)
          .reduce((n, x) => n + x.quantity, 0);
        const open = claims.some((c) => c.status === 'open' && c.lines.some((x) => x.variantId === l.variantId));
        return {
          variantId: l.variantId,
          openQuantity: item ? Math.max(0, item.quantity - claimed) : 0,
          canChoose: !!item && !open,
          unitPriceMinor: item?.unitCostMinor ?? 0,
        };
      }),
      maxAmountMinor: order.costs.totalMinor,
      currency: order.costs.currency,
      expectations: ['refund', 'reship'],
    };
  }

  open(
    caller: Caller,
    record: OrderRecord,
    input: Omit<SandboxClaim, 'id' | 'orderId' | 'accountId' | 'status' | 'outcome' | 'createdAt' | 'updatedAt'>,
  ): SandboxClaim {
    this.opensByKey.set(input.claimKey, (this.opensByKey.get(input.claimKey) ?? 0) + 1);
    const existing = this.byKey(caller, input.claimKey);
    if (existing) throw new ApiError(409, 'claimKeyExists', `Claim key ${input.claimKey} is claim ${existing.id} already`, { claimId: existing.id });
    if (record.order.status !== 'shipped' && record.order.status !== 'delivered')
      throw new ApiError(409, 'notClaimable', `Order ${record.order.id} is ${record.order.status}; only a shipped order can be claimed`);
    const terms = this.terms(record, input.lines);
    for (const [i, t] of terms.lines.entries()) {
      if (!t.canChoose || t.openQuantity < input.lines[i].quantity)
        throw new ApiError(
          409,
          'notClaimable',
          `Variant ${t.variantId}: ${t.canChoose ? `only ${t.openQuantity} open to a claim` : 'a claim is open on it already'}`,
        );
    }
    const at = now();
    const claim: SandboxClaim = {
      ...input,
      id: `SBX-C${randomBytes(5).toString('hex').toUpperCase()}`,
      orderId: record.order.id,
      accountId: caller.account.id,
      status: 'open',
      outcome: null,
      createdAt: at,
      updatedAt: at,
    };
    this.byId.set(claim.id, claim);
    return claim;
  }

  byKey(caller: Caller, claimKey: string): SandboxClaim | undefined {
    return [...this.byId.values()].find((c) => c.accountId === caller.account.id && c.claimKey === claimKey);
  }

  get(caller: Caller | null, id: string): SandboxClaim {
    const c = this.byId.get(id);
    if (!c || (caller && c.accountId !== caller.account.id)) throw new ApiError(404, 'claimNotFound', `No claim ${id}`);
    return c;
  }

  cancel(caller: Caller, id: string): SandboxClaim {
    const c = this.get(caller, id);
    if (c.status === 'cancelled') return c;
    if (c.status !== 'open') throw new ApiError(409, 'claimDecided', `Claim ${id} is ${c.status}`);
    return this.set(c, 'cancelled', null);
  }

  /** A test decides: a refund of `amountMinor` (default: the claimed lines' cost), a reship, or a rejection with words. */
  decide(id: string, body: { outcome?: unknown; amountMinor?: number; message?: string }, record: OrderRecord): SandboxClaim {
    const c = this.get(null, id);
    if (c.status !== 'open') throw new ApiError(409, 'claimDecided', `Claim ${id} is ${c.status}`);
    const { order } = record;
    if (body.outcome === 'refund') {
      const worth = c.lines.reduce((n, l) => n + (order.items.find((i) => i.variantId === l.variantId)?.unitCostMinor ?? 0) * l.quantity, 0);
      return this.set(c, 'approved', { kind: 'refund', amountMinor: body.amountMinor ?? worth, currency: order.costs.currency });
    }
    if (body.outcome === 'reship') return this.set(c, 'approved', { kind: 'reship' });
    if (body.outcome === 'reject') return this.set(c, 'rejected', { kind: 'rejected', message: body.message ?? 'The carrier shows the parcel delivered.' });
    throw invalidRequest('outcome must be refund, reship or reject');
  }

  all(): SandboxClaim[] {
    return [...this.byId.values()];
  }

  private of(orderId: string): SandboxClaim[] {
    return this.all().filter((c) => c.orderId === orderId);
  }

  private set(c: SandboxClaim, status: ClaimStatus, outcome: ClaimOutcome | null): SandboxClaim {
    c.status = status;
    c.outcome = outcome;
    c.updatedAt = now();
    return c;
  }
}
