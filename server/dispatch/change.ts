import type { Actor } from '../identity/permissions';
import type { PartMove } from '../orders';
import type { EventType } from '../events';
import type { SupplierOrderStatus } from './state-machine';
import type { DeliveryState } from './delivery/types';
import type { LandedCost } from './landed';
import type { Step } from './steps';
import type { SupplierOrder } from './supplier-order';

export type Fields = Partial<Omit<SupplierOrder, 'id' | 'status' | 'storeId' | 'orderId' | 'partKey' | 'createdAt' | 'updatedAt'>>;

/** One change of a supplier order, as ./sql/write.ts `writeChange` writes it in one statement. */
export interface Change {
  id: string;
  /** The status the record must still have (compare and set); null: the change makes the record. */
  from: SupplierOrderStatus | null;
  to: SupplierOrderStatus;
  /** The columns that change besides the status. */
  fields: Fields;
  /**
   * What else the record must still hold, decided by the same compare and set: a person's request waits for no
   * reroute under way (`noReroute`); a reroute's request and its move find no cancel asked (`noCancel`), and the move
   * its request still standing (`reroute`). One winner between a reroute and a person, decided in the database.
   */
  guard: Array<'noReroute' | 'noCancel' | 'reroute'>;
  /** A change the delivery watch decided writes only over the delivery state it read (two sweeps, a sweep and a read-back). */
  deliveryWas?: DeliveryState | null;
  /** The delivery watch's event, besides the status's (./delivery/effect.ts). */
  alsoEvent?: EventType | null;
  history: { actor: Actor; type: string; details: Record<string, unknown> };
  /** How the order part moves with it (orders' `partMove`, through its `PartMoves`, in the same statement); null: it does not. */
  part: PartMove | null;
  /** The part's landed costs recorded with the change (one row per stage, written once: ./sql/write.ts). */
  landed: LandedCost[];
  /** The record as it reads once written, and the step then due. */
  after: SupplierOrder;
  next: Step | null;
}
