import type { DeliveryAttentionReason, DeliveryException } from '../../platform/vocabulary/delivery';
import type { TrackingEvent } from '../../suppliers/adapter';

/** Why a sent order's delivery needs a look, since when, in the service's words. */
export interface DeliveryAttention {
  reason: DeliveryAttentionReason;
  since: string;
  message: string;
}

/**
 * What the delivery watch knows of a sent order (the supplier's reports, as read back) and what it raised. Times are
 * the supplier's where it gives them (its scans, when it was paid and shipped), else when the service first saw them.
 */
export interface DeliveryState {
  paidAt: string | null;
  shippedAt: string | null;
  /** The latest carrier scan's time. */
  lastScanAt: string | null;
  /** The carrier's latest scans, oldest first (at most SCANS_KEPT). */
  scans: TrackingEvent[];
  exception: DeliveryException | null;
  promisedMaxDays: number | null;
  attention: DeliveryAttention | null;
  /** A person's acknowledgement: that reason is not raised again until its threshold passes anew (an exception: until a new scan). */
  acknowledged: { reason: DeliveryAttentionReason; at: string; scan: string | null } | null;
}

/** A reship's supplier order: the claim whose goods it replaces, and the supplier's claim id its create names. */
export interface ReshipOf {
  claimId: string;
  supplierOrderId: string;
  supplierClaimId: string | null;
}
