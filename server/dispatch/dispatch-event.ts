import type { Actor } from '../identity/permissions';
import type { DeliveryWatch } from '../connections';
import type { DeliveryAttentionReason } from '../platform/vocabulary/delivery';
import type { SupplierOrderSnapshot } from '../suppliers/adapter';
import type { ReviewReason } from './review-reasons';
import type { LandedCost } from './landed';
import type { EarlierOrder, NewSupplierOrder, RerouteRequest, RerouteTry, RoutingChoice } from './supplier-order';

/** The system as an actor: what the job, the sweeper and the supplier's answers do on no person's request. */
export const SYSTEM: Actor = { kind: 'system', id: null };

/** Something that happens to a supplier order: a request, or what the dispatch job learnt (see MOVE_TABLE). */
export type DispatchEvent =
  /** `reroutedFrom`: made by a reroute (what the history records of it); `tried`: the alternates tried before, carried. */
  | {
      type: 'create';
      record: NewSupplierOrder;
      actor: Actor;
      trigger: string;
      reroutedFrom?: Record<string, unknown>;
      tried?: RerouteTry[];
      routing?: RoutingChoice;
      earlier?: EarlierOrder[];
    }
  | { type: 'retry'; actor: Actor; acceptCost?: { costMinor: number | null }; resumed?: 'exchangeRateAvailable' }
  | { type: 'automaticRetry' }
  | { type: 'payRequested'; actor: Actor }
  | { type: 'cancelRequested'; actor: Actor; storeTakesOver: boolean }
  /**
   * The supplier's view of our order; `history` names how we learnt it (createdAtSupplier, paid, readBack, ...);
   * `landed`: the part's landed costs this answer records (at confirmation, accepted, paid: ./landed.ts).
   */
  | {
      type: 'supplierAnswered';
      answer: SupplierOrderSnapshot;
      history: string;
      details?: Record<string, unknown>;
      paymentDue?: boolean;
      payRequestDone?: boolean;
      landed?: LandedCost[];
      watch?: DeliveryWatch;
    }
  /** The delivery watch (./delivery/): a threshold came due (the sweep), or a person acknowledged the attention; the status stays. */
  | { type: 'deliveryWatched'; watch: DeliveryWatch }
  | { type: 'attentionAcknowledged'; actor: Actor; reason: DeliveryAttentionReason; watch: DeliveryWatch }
  /** A claim with the supplier (./claims/) goes to the history, with its event; the status stays. */
  | { type: 'claimRecorded'; actor: Actor; kind: 'claimOpened' | 'claimUpdated' | 'claimClosed'; details: Record<string, unknown> }
  /** A return on the store's side (./returns/), or its refund's move, goes to the history with its event; the status stays. */
  | { type: 'returnRecorded'; actor: Actor; kind: 'returnRecorded' | 'returnUpdated'; details: Record<string, unknown> }
  /** `numberUnused`: the supplier refused the create, so the number was never used. */
  | { type: 'paused'; reason: ReviewReason; message: string; details?: Record<string, unknown>; numberUnused?: boolean; reroute?: RerouteRequest }
  | { type: 'failed'; error: string; message: string; retryInSeconds: number }
  /** The payment provider took the request to capture the shopper's payment (`reference`: its payment id). */
  | { type: 'captureRequested'; reference: string | null }
  /** The shopper cannot be charged: the provider refused the capture (its answer or its signed event). */
  | { type: 'captureFailed'; message: string }
  /** `withdrawn`: cancelled at the supplier just now; otherwise the supplier had it cancelled, or never had it. */
  | { type: 'cancelled'; answer: SupplierOrderSnapshot | null; withdrawn: boolean }
  | { type: 'cancelRefused'; reason: ReviewReason; message: string }
  | { type: 'cancelTooLate'; answer: SupplierOrderSnapshot | null }
  | { type: 'cancelRequestCleared' }
  | { type: 'rerouteRequested'; actor: Actor; request: RerouteRequest }
  /** The items went to `to` (the alternate's new supplier order); `details`: from, to, reason, cost difference. */
  | { type: 'rerouted'; actor: Actor; to: string; details: Record<string, unknown>; answer: SupplierOrderSnapshot | null }
  /** No alternate could take the items: the pause stands, its message listing each tried and why. */
  | { type: 'rerouteEnded'; tried: RerouteTry[]; message: string; reason?: ReviewReason }
  /** Routing's move (./sourcing/move.ts): the items gone to the chosen order (the choice rides on the write: ./carry.ts). */
  | { type: 'routedAway'; to: string; details: Record<string, unknown> };
