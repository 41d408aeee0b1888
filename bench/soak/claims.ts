/**
 * After shipping in the soak (issue 54): a fault that puts shipped sandbox parcels into a carrier's exception
 * (./faults.ts, `supplier delivery exception`), which the delivery watch raises; the merchant then opens a claim on
 * each sandbox order whose delivery needs attention (a reship or a refund, by turns), and the sandbox decides each a few
 * seconds later (reship, refund or rejection). The invariant (./invariants/claims.ts): no claim sent twice, no
 * reship created twice, against the sandbox's own records.
 */
import { control, sleep } from './api';
import type { Suppliers } from './programs';
import type { Store } from './world';

export interface Opened {
  store: Store;
  supplierOrderId: string;
  claimId: string;
  expectation: 'reship' | 'refund';
}

const EXCEPTIONS = ['customsHold', 'failedDelivery', 'returnedToSender'] as const;
interface ListedSo {
  _id: string;
  orderId: string;
  fulfilmentGroupKey: string;
  status: string;
  reshipOf: unknown;
  deliveryAttention: { reason: string } | null;
}

/** The fault: up to three parcels shipped at the sandbox go into an exception; answers what it did. */
export async function deliveryException(s: Suppliers, random: () => number): Promise<string> {
  const received = await control<{ orders: Array<{ id: string; status: string }> }>(s.sandbox.control, 'GET', '/received');
  const shipped = received.orders
    .filter((o) => o.status === 'shipped')
    .sort(() => random() - 0.5)
    .slice(0, 3);
  const done: string[] = [];
  for (const o of shipped) {
    const kind = EXCEPTIONS[Math.floor(random() * EXCEPTIONS.length)];
    if (
      await control(s.sandbox.control, 'POST', `/orders/${o.id}/parcel`, { exception: kind }).then(
        () => true,
        () => false,
      )
    )
      done.push(`${o.id} ${kind}`);
  }
  return done.length ? `sandbox: parcels in an exception: ${done.join(', ')}` : 'sandbox: no parcel shipped yet to put in an exception';
}

export class ClaimsLoad {
  readonly opened: Opened[] = [];
  readonly errors = new Map<string, number>();
  decided = 0;
  private running = true;
  private opening = true;
  private readonly seen = new Set<string>();

  constructor(
    private readonly stores: Store[],
    private readonly s: Suppliers,
    private readonly random: () => number,
  ) {
    void this.every(7000, () => this.merchant());
    void this.every(5000, () => this.supplier());
  }

  private every(ms: number, fn: () => Promise<unknown>): Promise<void> {
    return (async () => {
      while (this.running) {
        await sleep(ms);
        if (!this.running) return;
        await fn().catch((err: unknown) => {
          const key = err instanceof Error ? err.message.slice(0, 120) : String(err);
          this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
        });
      }
    })();
  }

  /** A claim on each sandbox order whose delivery needs attention (never on a reship, never twice from here). */
  private async merchant(): Promise<void> {
    for (const store of this.opening ? this.stores : []) {
      const { api, owner, storeId } = store;
      const listed = await api.call<{ result: { items: ListedSo[] } }>(
        'GET',
        `/api/store-suppliers/${storeId}/orders?needsAttention=true&integrationId=${store.conns.sandbox}&pageSize=20`,
        { key: owner.key },
      );
      if (listed.status !== 200) continue;
      for (const so of listed.body.result.items.filter((x) => !x.reshipOf && !this.seen.has(x._id))) {
        this.seen.add(so._id);
        const order = await api.call<{ result: { items: Array<{ id: string; groupKey: string }> } }>('GET', `/api/store-orders/${storeId}/${so.orderId}`, {
          key: owner.key,
        });
        const item = order.body?.result?.items.find((i) => i.groupKey === so.fulfilmentGroupKey);
        if (!item) continue;
        const expectation = this.opened.length % 2 ? 'refund' : 'reship';
        const c = await api.call<{ result: { _id: string } }>('POST', `/api/store-suppliers/${storeId}/orders/${so._id}/claims`, {
          key: owner.key,
          body: { reason: 'notReceived', expectation, items: [{ itemId: item.id, quantity: 1 }], message: 'Soak' },
        });
        if (c.status === 201) this.opened.push({ store, supplierOrderId: so._id, claimId: c.body.result._id, expectation });
      }
    }
  }

  /** The sandbox decides each open claim a few seconds after it came: mostly as asked, sometimes a rejection. */
  private async supplier(): Promise<void> {
    const open = (
      await control<{ items: Array<{ id: string; status: string; expectation: string; createdAt: string }> }>(this.s.sandbox.control, 'GET', '/claims')
    ).items.filter((c) => c.status === 'open' && Date.now() - Date.parse(c.createdAt) > 3000);
    for (const c of open) {
      const outcome = this.random() < 0.2 ? 'reject' : c.expectation;
      await control(this.s.sandbox.control, 'POST', `/claims/${c.id}/decide`, { outcome });
      this.decided++;
    }
  }

  /** No more claims opened; the sandbox's decisions go on through the settle phase until `end`. */
  stop(): void {
    this.opening = false;
  }

  async end(): Promise<void> {
    this.running = false;
    await sleep(100);
  }
}
