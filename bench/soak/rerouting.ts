/**
 * Backup-supplier rerouting (issue 34) in the soak: its load, and its invariants (bench/soak/invariants/rerouting.ts).
 *
 * Each store gets three products of its own, out of the shoppers' reach (the ends of the catalogues, priced and stocked
 * through the suppliers' control APIs before the import, so no `costChanged` pause gets in the way), each with one
 * alternate on another of the store's connections:
 * - `sandbox→cj by rule`: a sandbox product whose stock is 0 (paused `variantUnavailable`, in the default rule), its
 *   alternate a CJ variant at the same cost. The alternate's order is sent unpaid (the CJ connection pays by hand):
 *   the soak pays it, as the merchant pays its other CJ parts;
 * - `cj→sandbox by rule`: a CJ product dearer ($600) than the CJ connection's cost limit ($500: every other CJ part of
 *   the soak costs far less), paused `costAboveLimit`; its alternate a sandbox variant (automatic, paying);
 * - `cj→sandbox by hand`: a CJ product whose stock is 0, paused `variantUnavailable`, which the CJ connection's rule
 *   leaves out (`reasons: destinationUnsupported, costAboveLimit`): the soak asks `POST .../reroute` for it.
 * While the load runs, one order of one of them per store every 12 to 18 s (the shoppers order every 3 to 7 s), paid at
 * the provider like the others and counted with them, so every other invariant covers these orders too; the CJ parts go
 * through the merchant's manual dispatch. The merchant's part of it (the reroutes by hand, paying the CJ alternates)
 * and a sample of "never two live orders across suppliers" every 30 s go on through the settle phase.
 */
import { call, control, sleep } from './api';
import type { Catalogues, Offer, SupplierName } from './catalogues';
import {
  AskedByHand,
  liveAcrossReroutes,
  noAlternateTwice,
  noTwoLiveAcrossSuppliers,
  RerouteCounts,
  reroutePending,
  reroutesEnded,
  SoEvent,
} from './invariants/rerouting';
import type { Verdict } from './invariants/verdict';
import type { ManualDispatch } from './merchant';
import type { Suppliers } from './programs';
import { gather, ServiceSupplierOrder } from './records';
import type { PlacedOrder, Shoppers } from './shoppers';
import { aeOrders, cjRecords, sandboxRecords } from './supplier-side';
import type { Store } from './world';
import { ROUTING_KINDS, ROUTING_PLAN, routedByRule, RoutingKind } from './routing';

export const REROUTING_IN_SOAK = true;

type Kind = 'sandbox→cj by rule' | 'cj→sandbox by rule' | 'cj→sandbox by hand' | RoutingKind;
const KINDS: Kind[] = ['sandbox→cj by rule', 'cj→sandbox by rule', 'cj→sandbox by hand', ...ROUTING_KINDS];
const COST_LIMIT_MINOR = 50000;
const DESTINATION = {
  name: 'Ada Lovelace',
  line1: '12 Analytical Street',
  city: 'Springfield',
  region: 'IL',
  postalCode: '62701',
  country: 'US',
  phone: '+1 555 010 0199',
  email: 'ada@example.test',
};

type Planned = { store: Store; kind: Kind; productId: string; variantId: string };
type Provoked = { plan: Planned; order: PlacedOrder; done: boolean };
type Listed = ServiceSupplierOrder & { events: SoEvent[]; integrationId: string };

export interface Context {
  suppliers: Suppliers;
  cats: Catalogues;
  shoppers: Shoppers;
  dispatch: ManualDispatch;
  random: () => number;
}

export class ReroutingLoad {
  readonly provoked: Provoked[] = [];
  readonly askedByHand: AskedByHand[] = [];
  readonly sampled = { samples: 0, failures: new Map<string, string>() };
  readonly errors = new Map<string, number>();
  paid = 0;
  counts: RerouteCounts | null = null;
  private ordering = true;
  private running = true;
  private readonly busy = new Set<Promise<unknown>>();

  constructor(
    private readonly stores: Store[],
    private readonly c: Context,
  ) {
    // No other store imports these: the shoppers' imports never reach them.
    for (const s of stores) for (const o of stores.flatMap((x) => this.offers(x))) s.tried.add(o.supplierProductId);
    for (const store of stores) void this.storeLoop(store);
    void this.every(4000, () => this.merchant());
    void this.every(30000, () => this.sample());
  }

  /** The store's ten offers at the ends of the catalogues: per kind, its primary and its alternate (./routing.ts's last). */
  private offers(store: Store): Offer[] {
    const at = (name: SupplierName, k: number) => this.c.cats[name][this.c.cats[name].length - 1 - (5 * (store.index - 1) + k)];
    return [
      at('sandbox', 0),
      at('cj', 0),
      at('cj', 1),
      at('sandbox', 1),
      at('cj', 2),
      at('sandbox', 2),
      at('sandbox', 3),
      at('cj', 3),
      at('sandbox', 4),
      at('cj', 4),
    ];
  }

  private count(where: string, err: unknown): void {
    const key = `${where}: ${err instanceof Error ? err.message.slice(0, 120) : String(err)}`;
    this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
  }

  private every(ms: number, fn: () => Promise<unknown>): Promise<void> {
    return (async () => {
      while (this.running) {
        await sleep(ms);
        if (!this.running) return;
        const pass = fn().catch((err: unknown) => this.count('rerouting', err));
        this.busy.add(pass);
        await pass;
        this.busy.delete(pass);
      }
    })();
  }

  private async storeLoop(store: Store): Promise<void> {
    const planned: Planned[] = [];
    const [sbxA, cjA, cjB, sbxB, cjC, sbxC, sbxD, cjD, sbxE, cjE] = this.offers(store);
    const s = this.c.suppliers;
    const sandboxAt = (o: Offer, stock: number, costMinor = 2000) =>
      control(s.sandbox.control, 'POST', `/variants/${o.supplierVariantId}`, { costMinor, stock });
    const cjAt = (o: Offer, sellPrice: string, stock: number) => control(s.cj.control, 'POST', `/variants/${o.supplierVariantId}`, { sellPrice, stock });
    try {
      await store.api.patiently('PUT', `/api/store-suppliers/${store.storeId}/${store.conns.cj}/automation`, {
        key: store.owner.key,
        body: {
          level: 'manual',
          automaticPayment: false,
          costLimit: { amountMinor: COST_LIMIT_MINOR, currency: 'USD' },
          reroute: { reasons: ['destinationUnsupported', 'costAboveLimit'], maxCostIncreasePercent: 10 },
        },
      });
      await Promise.all([
        sandboxAt(sbxA, 500),
        cjAt(cjA, '20.00', 500),
        cjAt(cjB, '600.00', 500),
        sandboxAt(sbxB, 1000),
        cjAt(cjC, '20.00', 500),
        sandboxAt(sbxC, 1000),
      ]);
      const a = await this.linked(store, 'sandbox→cj by rule', sbxA, 'sandbox', { ...cjA, connectionId: store.conns.cj });
      const b = await this.linked(store, 'cj→sandbox by rule', cjB, 'cj', { ...sbxB, connectionId: store.conns.sandbox });
      const c = await this.linked(store, 'cj→sandbox by hand', cjC, 'cj', { ...sbxC, connectionId: store.conns.sandbox });
      // The primaries fail from now on: stock 0 at the sandbox and at CJ.
      if (a) await sandboxAt(sbxA, 0);
      if (c) await cjAt(cjC, '20.00', 0);
      const routed: Array<[RoutingKind, Offer, Offer]> = [
        ['sandbox→cj by routing', sbxD, cjD],
        ['sandbox kept by routing', sbxE, cjE],
      ];
      for (const [kind, primary, alternate] of routed) {
        await Promise.all([sandboxAt(primary, 1000, ROUTING_PLAN[kind].sandboxCostMinor), cjAt(alternate, ROUTING_PLAN[kind].cjSellPrice, 500)]);
        const p = await this.linked(store, kind, primary, 'sandbox', { ...alternate, connectionId: store.conns.cj }, ROUTING_PLAN[kind].routing);
        if (p) planned.push(p);
      }
      planned.push(...[a, b, c].filter((p): p is Planned => !!p));
    } catch (err) {
      this.count(`store ${store.index} set-up`, err);
    }
    for (let i = store.index; this.ordering && planned.length; i++) {
      await sleep(12000 + this.c.random() * 6000);
      if (this.ordering) await this.order(planned[i % planned.length]).catch((err: unknown) => this.count('rerouting order', err));
    }
  }

  /** Imports the offer (2 credits, in the credit book) and names its alternate; answers the plan, or null. */
  private async linked(
    store: Store,
    kind: Kind,
    offer: Offer,
    supplier: SupplierName,
    alternate: Offer & { connectionId: string },
    routing?: Record<string, unknown>,
  ): Promise<Planned | null> {
    const { api, owner, storeId } = store;
    const links = () =>
      api.patiently<{ result: { items: Array<{ id: string; supplierProductId: string }> } }>(
        'GET',
        `/api/store-suppliers/${storeId}/links?connectionId=${store.conns[supplier]}&pageSize=100`,
        { key: owner.key },
      );
    const a = await api.charged<{ result: { products: Array<{ id: string; variants: Array<{ id: string }> }> } }>(
      {
        accountId: owner.accountId,
        action: 'supplierProduct.import',
        price: 2,
        what: `import ${supplier} product ${offer.supplierProductId} into store ${storeId} (rerouting: ${kind})`,
        done: (x) => 2 * x.body.result.products.length,
        probe: async () => (await links()).body.result.items.some((l) => l.supplierProductId === offer.supplierProductId),
      },
      'POST',
      `/api/store-suppliers/${storeId}/${store.conns[supplier]}/import`,
      {
        key: owner.key,
        body: { products: [{ supplierProductId: offer.supplierProductId, variantIds: [offer.supplierVariantId] }], priceRule: { multiplier: '2' } },
      },
    );
    const made = a.status === 201 ? a.body.result.products[0] : undefined;
    if (!made) return null;
    const link = (await links()).body.result.items.find((l) => l.supplierProductId === offer.supplierProductId);
    if (!link) return null;
    const set = await api.patiently('PUT', `/api/store-suppliers/${storeId}/links/${link.id}`, {
      key: owner.key,
      body: { alternates: [{ storeVariantId: made.variants[0].id, ...alternate }], ...(routing ? { routing } : {}) },
    });
    if (set.status !== 200) throw new Error(`alternates of ${kind}: ${set.status} ${set.text.slice(0, 200)}`);
    return { store, kind, productId: made.id, variantId: made.variants[0].id };
  }

  /** One order of the planned product, paid at the provider, counted with the shoppers' (and its CJ part sent by hand). */
  private async order(plan: Planned): Promise<void> {
    const { store } = plan;
    const res = await store.api.call<{ result: { id: string; totalMinor: number; currency: string } }>('POST', `/api/store-orders/${store.storeId}`, {
      key: store.owner.key,
      body: {
        items: [{ productId: plan.productId, variantId: plan.variantId, quantity: 1 }],
        destination: DESTINATION,
        paymentMethod: 'online',
        contractModel: 'standard',
      },
    });
    if (res.status !== 201) return;
    const supplier: SupplierName = plan.kind.startsWith('cj') ? 'cj' : 'sandbox';
    const o: PlacedOrder = {
      store,
      orderId: res.body.result.id,
      contractModel: 'standard',
      totalMinor: res.body.result.totalMinor,
      suppliers: [supplier],
      paymentId: null,
      eventId: null,
      eventDelivered: false,
      placedAt: Date.now(),
    };
    this.c.shoppers.orders.push(o);
    this.provoked.push({ plan, order: o, done: false });
    const paid = await call<{ id: string; eventId: string }>(this.c.suppliers.payments.baseUrl, 'POST', '/v1/payments', {
      headers: { Authorization: `Bearer ${store.merchant.apiKey}` },
      body: { orderId: o.orderId, amountMinor: o.totalMinor, currency: res.body.result.currency, capture: true },
    });
    if (paid.status !== 201) throw new Error(`the payment provider refused a payment: ${paid.status} ${paid.text}`);
    o.paymentId = paid.body.id;
    o.eventId = paid.body.eventId;
    if (supplier === 'cj') this.c.dispatch.add(o);
  }

  /** The merchant's part: asks the reroutes by hand, and pays the CJ alternates' orders. */
  private async merchant(): Promise<void> {
    for (const p of this.provoked.filter((x) => !x.done && Date.now() - x.order.placedAt > 3000)) {
      const { store } = p.plan;
      const a = await store.api.call<{ result: { items: Listed[] } }>('GET', `/api/store-suppliers/${store.storeId}/orders?orderId=${p.order.orderId}`, {
        key: store.owner.key,
      });
      if (a.status !== 200) continue;
      const sos = a.body.result.items;
      let open = sos.length === 0;
      for (const so of sos) {
        const asked = this.askedByHand.some((x) => x.supplierOrderId === so._id);
        if (
          p.plan.kind === 'cj→sandbox by hand' &&
          so.status === 'needsReview' &&
          so.reviewReason === 'variantUnavailable' &&
          so.integrationId === store.conns.cj &&
          !asked
        ) {
          const r = await store.api.call('POST', `/api/store-suppliers/${store.storeId}/orders/${so._id}/reroute`, {
            key: store.owner.key,
            body: {},
            headers: { Prefer: 'respond-async' },
          });
          if (r.status === 200 || r.status === 202) this.askedByHand.push({ supplierOrderId: so._id, storeIndex: store.index, status: r.status });
          open = true;
        } else if (
          so.integrationId === store.conns.cj &&
          so.status === 'submitted' &&
          so.payment.status === 'unpaid' &&
          ['reroute', 'routing'].includes(String(so.events[0]?.details?.trigger))
        ) {
          const r = await store.api.call('POST', `/api/store-suppliers/${store.storeId}/orders/${so._id}/pay`, {
            key: store.owner.key,
            headers: { Prefer: 'respond-async' },
          });
          if (r.status === 200 || r.status === 202) this.paid++;
          open = true;
        } else if (!['shipped', 'delivered', 'cancelled', 'needsReview'].includes(so.status) || reroutePending(so.events)) open = true;
      }
      p.done = !open;
    }
  }

  /** "Never two live orders across suppliers", now: every supplier read twice, the service's records between. */
  private async sample(): Promise<void> {
    const s = this.c.suppliers;
    const earlier = { sandbox: await sandboxRecords(s), cj: await cjRecords(s), aliexpress: await aeOrders(s) };
    const g = await gather(s, this.stores);
    for (const f of liveAcrossReroutes(g, earlier)) this.sampled.failures.set(f.split(':')[0], `${new Date().toISOString()}: ${f}`);
    this.sampled.samples++;
  }

  /** No more orders (the load's time is up); the merchant and the samples go on through the settle phase. */
  stop(): void {
    this.ordering = false;
  }

  /** Ends the merchant's part and the samples: waits for a pass under way, not for the loops' sleeps. */
  async end(): Promise<void> {
    this.ordering = false;
    this.running = false;
    await Promise.race([Promise.all([...this.busy]), sleep(40000)]);
  }

  summary(): string {
    const c = this.counts;
    return c
      ? `${c.byRule + c.byHand} reroutes (${c.byRule} by rule, ${c.byHand} by hand: ${c.rerouted} rerouted, ${c.paused} left paused)`
      : 'reroutes not checked';
  }
}

/** The rerouting load, started by main.ts beside the others. */
export function reroutingLoad(stores: Store[], c: Context): ReroutingLoad {
  return new ReroutingLoad(stores, c);
}

/** The rerouting invariants, once the merchant's part has ended. */
export async function reroutingInvariants(stores: Store[], load: ReroutingLoad | undefined, s: Suppliers): Promise<Verdict[]> {
  if (!load) return [];
  await load.end();
  for (const [k, n] of load.errors) process.stderr.write(`soak: rerouting error ×${n}: ${k}\n`);
  const g = await gather(s, stores);
  const ended = reroutesEnded(g, load.askedByHand);
  load.counts = ended.counts;
  const kinds = KINDS.map((k) => `${load.provoked.filter((p) => p.plan.kind === k).length} ${k}`).join(', ');
  for (const so of g.supplierOrders.values()) {
    for (const e of (so as ServiceSupplierOrder & { events?: SoEvent[] }).events ?? []) {
      if (e.type === 'rerouteFailed')
        process.stderr.write(
          `soak: rerouting: supplier order ${so._id} (store ${so.store.index}, ${so.supplierKey}, ${so.status}) left paused: ${String(e.details?.message)} ${JSON.stringify(e.details?.tried ?? [])}\n`,
        );
    }
  }
  process.stderr.write(
    `soak: rerouting: ${load.provoked.length} orders to reroute (${kinds}), ${load.askedByHand.length} reroutes asked by hand, ${load.paid} alternates paid by hand; ${load.summary()}\n`,
  );
  const routedOrders = load.provoked.filter((p) => (ROUTING_KINDS as readonly string[]).includes(p.plan.kind)).length;
  return [noTwoLiveAcrossSuppliers(g, load.sampled), ended.verdict, noAlternateTwice(g), routedByRule(g, routedOrders)];
}
