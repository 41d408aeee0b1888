import type { Order } from './types';

/**
 * The sandbox's clock, which a test moves forward (`POST /control/clock`): virtual time is real time plus the moves. A
 * time is reported as long before the real now as it is before the virtual now, so a parcel whose clock moved 80 hours
 * reads to the service as last scanned 80 hours ago, without anyone waiting.
 */
export class SandboxClock {
  offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  report(virtualMs: number): string {
    return new Date(virtualMs - this.offsetMs).toISOString();
  }
}

export type ParcelException = 'returnedToSender' | 'failedDelivery' | 'customsHold';

interface Scan {
  at: number;
  description: string;
  location: string;
  exception?: ParcelException;
}

interface Journey {
  shippedAt: number;
  /** Where the plan's hours count from (shifted by a stall). */
  startedAt: number;
  scans: Scan[];
  /** The next planned scan's place in PLAN; PLAN.length: the journey ended. */
  next: number;
  /** Since when the parcel sits still (null: moving): moving again, its plan resumes from then, shifted by the wait. */
  stalledAt: number | null;
}

/** A parcel's journey, as hours after it was handed to the carrier; the last scan delivers it. */
const PLAN = [
  { hours: 0, description: 'Picked up by the carrier', where: 'origin' },
  { hours: 18, description: 'Departed the origin sorting centre', where: 'origin' },
  { hours: 40, description: 'Arrived in the destination country', where: 'country' },
  { hours: 60, description: 'Out for delivery', where: 'city' },
  { hours: 66, description: 'Delivered', where: 'city' },
] as const;
const HOUR = 3_600_000;

const EXCEPTION_WORDS: Record<ParcelException, string> = {
  returnedToSender: 'Returned to sender: the address could not be found',
  failedDelivery: 'Delivery attempted: nobody at the address',
  customsHold: 'Held at customs: duties unpaid',
};

/**
 * Parcels' carrier scans on the sandbox's clock: each shipped order's journey moves as the clock does, unless a test
 * stalls it or puts it in an exception. Replaced whole with the orders by a control reset.
 */
export class Journeys {
  private readonly byOrder = new Map<string, Journey>();
  /** When each order was paid, on the clock. */
  private readonly paid = new Map<string, number>();

  constructor(readonly clock: SandboxClock) {}

  paidNow(orderId: string): void {
    if (!this.paid.has(orderId)) this.paid.set(orderId, this.clock.now());
  }

  /** The parcel is handed to the carrier now: its first scan. */
  start(order: Order): void {
    if (this.byOrder.has(order.id)) return;
    const j: Journey = { shippedAt: this.clock.now(), startedAt: this.clock.now(), scans: [], next: 0, stalledAt: null };
    this.byOrder.set(order.id, j);
    this.advanceOne(order, j);
  }

  /** Every journey moved to the clock's now; answers the orders a scan delivered. */
  advance(orders: (id: string) => Order | undefined): string[] {
    const delivered: string[] = [];
    for (const [id, j] of this.byOrder) {
      const order = orders(id);
      if (!order || j.stalledAt !== null) continue;
      while (j.next < PLAN.length && j.startedAt + PLAN[j.next].hours * HOUR <= this.clock.now()) {
        if (this.advanceOne(order, j)) delivered.push(id);
      }
    }
    return delivered;
  }

  /** No scan comes any more until a test unstalls it. */
  stall(orderId: string, stalled: boolean): boolean {
    const j = this.byOrder.get(orderId);
    if (!j) return false;
    if (stalled && j.stalledAt === null) j.stalledAt = this.clock.now();
    if (!stalled && j.stalledAt !== null) {
      j.startedAt += this.clock.now() - j.stalledAt;
      j.stalledAt = null;
    }
    return true;
  }

  /** The carrier reports an exception now; the journey stops there. */
  exception(orderId: string, kind: ParcelException, description?: string): boolean {
    const j = this.byOrder.get(orderId);
    if (!j) return false;
    j.scans.push({
      at: this.clock.now(),
      description: description ?? EXCEPTION_WORDS[kind],
      location: j.scans[j.scans.length - 1]?.location ?? 'On the way',
      exception: kind,
    });
    j.stalledAt ??= this.clock.now();
    return true;
  }

  /** What the sandbox reports of the order's times and parcel (virtual times as reported times). */
  view(order: Order, promisedMaxDays: number) {
    const j = this.byOrder.get(order.id);
    const paid = this.paid.get(order.id);
    const last = j?.scans[j.scans.length - 1];
    return {
      paidAt: paid === undefined ? null : this.clock.report(paid),
      shippedAt: j ? this.clock.report(j.shippedAt) : null,
      tracking: j
        ? {
            events: j.scans.map((s) => ({
              at: this.clock.report(s.at),
              description: s.description,
              location: s.location,
              ...(s.exception ? { exception: s.exception } : {}),
            })),
            exception: last?.exception ?? null,
            promisedMaxDays,
          }
        : null,
    };
  }

  /** The journey's next planned scan, at its planned time; true when it delivered the parcel. */
  private advanceOne(order: Order, j: Journey): boolean {
    const step = PLAN[j.next];
    const where =
      step.where === 'origin'
        ? 'Shenzhen, CN'
        : step.where === 'country'
          ? `${order.destination.country} gateway`
          : `${order.destination.city}, ${order.destination.country}`;
    j.scans.push({ at: j.startedAt + step.hours * HOUR, description: step.description, location: where });
    j.next++;
    return j.next === PLAN.length;
  }
}
