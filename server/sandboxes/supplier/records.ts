import type { Environment } from './types';

/** Money that moved for an order: a payment from the balance, or its refund on cancel. */
export interface MoneyMovement {
  orderId: string;
  orderNumber: string;
  amountMinor: number;
  at: string;
  accountId: string;
  environment: Environment;
}

interface CallLoad {
  now: number;
  max: number;
  arrivals: number[];
}

/**
 * What the sandbox saw and did, as tests ask for it (`GET /control/received`): create attempts on the wire (faults
 * included), orders created per number, money moved, and each account's calls at once. Cleared by a control reset.
 */
export class Records {
  createAttempts = 0;
  readonly createdByNumber = new Map<string, number>();
  readonly payments: MoneyMovement[] = [];
  readonly refunds: MoneyMovement[] = [];
  /** Reship orders made for each approved claim (the service must make one). */
  readonly reshipsByClaim = new Map<string, number>();
  private callLoad = new Map<string, CallLoad>();
  /** Calls answered since the call load was last reset, by what they asked (`GET /v1/products/:id`, ...). */
  private calls = new Map<string, number>();

  orderCreated(orderNumber: string): void {
    this.createdByNumber.set(orderNumber, (this.createdByNumber.get(orderNumber) ?? 0) + 1);
  }

  /** Counts a call of an account while it is answered (and what it asked: `route`); answers the function that ends it. */
  callStarted(accountId: string, route = 'other'): () => void {
    this.calls.set(route, (this.calls.get(route) ?? 0) + 1);
    let load = this.callLoad.get(accountId);
    if (!load) this.callLoad.set(accountId, (load = { now: 0, max: 0, arrivals: [] }));
    load.now++;
    load.max = Math.max(load.max, load.now);
    load.arrivals.push(Date.now());
    if (load.arrivals.length > 2000) load.arrivals.splice(0, 1000);
    const l = load;
    return () => void l.now--;
  }

  resetCallLoad(): void {
    this.callLoad = new Map();
    this.calls = new Map();
  }

  view(): Record<string, unknown> {
    return {
      callLoad: Object.fromEntries([...this.callLoad].map(([id, l]) => [id, { maxInFlight: l.max, arrivals: l.arrivals }])),
      calls: Object.fromEntries(this.calls),
      ordersByNumber: Object.fromEntries(this.createdByNumber),
      createAttempts: this.createAttempts,
      payments: this.payments,
      refunds: this.refunds,
      reshipsByClaim: Object.fromEntries(this.reshipsByClaim),
    };
  }
}
