/**
 * The merchant's manual dispatch, for the CJ parts (the CJ connection sends only when asked): once the shopper has
 * paid, send the part (half the time paying at once, `payNow`), else pay the supplier order once it is created
 * unpaid. A call the service could not answer (a 503 while its database is away, a process killed under it) is
 * made again a little later, as a client retries; a paused order is left to a person, as the spec says.
 */
import type { Answer } from './api';
import type { PlacedOrder } from './shoppers';

interface SupplierOrderView {
  _id: string;
  status: string;
  payment: { status: string };
}

interface Task {
  order: PlacedOrder;
  payNow: boolean;
  step: 'submit' | 'pay';
  soId?: string;
  notBefore: number;
  submits: string[];
}

const FINAL_OR_PAUSED = new Set(['shipped', 'delivered', 'cancelled', 'needsReview', 'confirmed', 'processing']);

export class ManualDispatch {
  private readonly tasks: Task[] = [];
  submitted = 0;
  paid = 0;
  retried = 0;
  /** Every submit request sent for a part: its credits are checked together (one supplier order, 3 credits). */
  readonly submitsByPart = new Map<string, { order: PlacedOrder; requestIds: string[] }>();

  constructor(private readonly random: () => number) {}

  add(order: PlacedOrder): void {
    this.tasks.push({ order, payNow: this.random() < 0.5, step: 'submit', notBefore: Date.now() + 1000, submits: [] });
  }

  get pending(): number {
    return this.tasks.length;
  }

  /** One pass over what is due; answers when it is done. */
  async pass(): Promise<void> {
    const due = this.tasks.filter((t) => t.notBefore <= Date.now());
    await Promise.all(due.map((t) => this.step(t).catch(() => this.later(t))));
  }

  private later(t: Task, ms = 2000): void {
    t.notBefore = Date.now() + ms;
    this.retried++;
  }

  private done(t: Task): void {
    this.tasks.splice(this.tasks.indexOf(t), 1);
  }

  private async step(t: Task): Promise<void> {
    const { store, orderId } = t.order;
    const partKey = `supplier:${store.conns.cj}`;
    if (t.step === 'submit') {
      const bookKey = `${orderId}:${partKey}`;
      const path = `/api/store-suppliers/${store.storeId}/orders/${orderId}/groups/${encodeURIComponent(partKey)}/submit`;
      const a: Answer<{ result: SupplierOrderView }> = await store.api.call('POST', path, {
        key: store.owner.key,
        body: { payNow: t.payNow },
        headers: { Prefer: 'respond-async' },
      });
      const book = this.submitsByPart.get(bookKey) ?? { order: t.order, requestIds: [] };
      book.requestIds.push(a.requestId);
      this.submitsByPart.set(bookKey, book);
      if (a.status === 200 || a.status === 202) {
        this.submitted++;
        if (t.payNow) return this.done(t);
        t.step = 'pay';
        t.soId = a.body.result._id;
        return this.later(t, 3000);
      }
      // Refused for good (4xx but a rate limit): nothing a retry would change.
      if (a.status >= 400 && a.status < 500 && a.status !== 429) return this.done(t);
      return this.later(t);
    }
    const so = await store.api.call<{ result: SupplierOrderView }>('GET', `/api/store-suppliers/${store.storeId}/orders/${t.soId}`, { key: store.owner.key });
    if (so.status !== 200) return this.later(t);
    const { status, payment } = so.body.result;
    if (status === 'submitted' && payment.status === 'unpaid') {
      const paid = await store.api.call('POST', `/api/store-suppliers/${store.storeId}/orders/${t.soId}/pay`, {
        key: store.owner.key,
        headers: { Prefer: 'respond-async' },
      });
      if (paid.status === 200 || paid.status === 202) this.paid++;
      return this.later(t, 3000);
    }
    if (FINAL_OR_PAUSED.has(status) && payment.status !== 'unpaid') return this.done(t);
    if (status === 'needsReview' || status === 'cancelled') return this.done(t);
    return this.later(t, 3000);
  }
}
