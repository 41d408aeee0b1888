import type { DataSource, EntityManager } from 'typeorm';
import { Batcher } from '../platform/batching';
import type { Queryable } from '../platform/db';
import { errors } from '../platform/errors';
import type { ConnectionService, SupplierConnection } from '../connections';
import type { Actor } from '../identity/permissions';
import * as sql from './sql/reads';
import { workOfMany } from './sql/work';
import { writeChange } from './sql/write';
import type { NewSupplierOrder, PartRef, SupplierOrder } from './supplier-order';
import type { Work } from './work';
import type { ItemsMove, PartMoves } from '../orders';
import { connectionsOfPart } from './sql/reroute';
import type { EarlierOrder, RerouteTry, RoutingChoice } from './supplier-order';
import { type Carried, carrying } from './carry';
import { DispatchEvent, SYSTEM } from './dispatch-event';
import { transition } from './transition';

export { CHANGE_CHANNEL } from './sql/write';

/**
 * Supplier order records: the reads, and `change`, where every status change starts (`transition` decides it) and
 * ends (`writeChange`, ./sql/write.ts, writes it, with its history, its part and its notification, in one statement).
 */
export class SupplierOrderRecords {
  /** The work of the jobs that start together (one fetch's batch) is read together: one statement per store. */
  private readonly currencies = new Map<string, string>();
  private readonly works = new Batcher<{ id: string; storeId: string }, Work | null>((refs) => this.workOfMany(refs));

  constructor(
    private readonly db: DataSource,
    private readonly connections: Pick<ConnectionService, 'findById'>,
    /** Orders' service: the part of every change is moved by the orders domain, in the change's own statement. */
    private readonly parts: PartMoves,
  ) {}

  private write(db: Queryable, c: Carried, alike: string[] = []): Promise<SupplierOrder[]> {
    return writeChange(db, c, this.parts, alike);
  }

  load(id: string, storeId: string): Promise<SupplierOrder | null> {
    return sql.supplierOrderById(this.db, id, storeId);
  }

  async loadOrFail(id: string, storeId: string): Promise<SupplierOrder> {
    const so = await this.load(id, storeId);
    if (!so) throw errors.notFound('The supplier order');
    return so;
  }

  forPart(storeId: string, orderId: string, partKey: string): Promise<SupplierOrder | null> {
    return sql.supplierOrderOfPart(this.db, storeId, orderId, partKey);
  }

  bySupplierId(connectionId: string, supplierOrderId: string, storeId: string): Promise<SupplierOrder | null> {
    return sql.supplierOrderBySupplierId(this.db, connectionId, supplierOrderId, storeId);
  }

  connection(storeId: string, id: string): Promise<SupplierConnection | null> {
    return this.connections.findById(id, storeId);
  }

  /**
   * Everything a step needs, read fresh when the job starts (never carried in the job: what the pre-checks judge may
   * change until the supplier is called). Jobs that start in the same turn share one read per store.
   */
  work(id: string, storeId: string): Promise<Work | null> {
    return this.works.submit({ id, storeId });
  }

  private async workOfMany(refs: Array<{ id: string; storeId: string }>): Promise<Array<Work | null>> {
    const found = new Map<string, Work>();
    for (const [storeId, ids] of groupByStore(refs)) {
      for (const w of await workOfMany(this.db, storeId, ids)) found.set(w.so.id, w);
    }
    return refs.map((r) => found.get(r.id) ?? null);
  }

  /**
   * The one way a supplier order changes: the transition of `so` by `e`, written by compare and set on the status
   * it was read with; `routed`: routing's choice, written by the same statement (./carry.ts). Answers the record as written; one that moved meanwhile is a `concurrentChange` conflict.
   */
  async change(so: SupplierOrder, e: DispatchEvent, tx: Queryable = this.db, routed?: RoutingChoice | null): Promise<SupplierOrder> {
    const [written] = await this.write(tx, carrying(transition(so, e), routed));
    if (!written) throw errors.conflict('concurrentChange', 'The supplier order changed meanwhile; read it again.');
    return written;
  }

  /**
   * A pause decided from the connection alone (it is off or removed, in test mode without a sandbox, or its circuit
   * is open) holds for every part waiting on it: `so` and the connection's other queued parts (no cancel asked) are
   * paused by the same change in one write, as each would be when its own job ran, each with its own history. Their
   * jobs then find nothing due. Answers `so` as written.
   */
  async changeWithConnection(so: SupplierOrder, e: DispatchEvent): Promise<SupplierOrder> {
    const change = transition(so, e);
    const same = (o: SupplierOrder) => {
      const c = transition(o, e);
      return c.to === change.to && JSON.stringify([c.fields, c.part, c.history]) === JSON.stringify([change.fields, change.part, change.history]);
    };
    const alike = (await sql.queuedOfConnection(this.db, so, 499)).filter(same).map((o) => o.id);
    const written = (await this.write(this.db, change, alike)).find((w) => w.id === so.id);
    if (!written) throw errors.conflict('concurrentChange', 'The supplier order changed meanwhile; read it again.');
    return written;
  }

  /**
   * Exactly one supplier order per order part (unique index), written before any call to the supplier, with its
   * first event and the part's new state; `charge` runs in the same transaction only when this call made the record.
   */
  async create(
    record: NewSupplierOrder,
    actor: Actor,
    trigger: string,
    charge?: (tx: EntityManager) => Promise<void>,
  ): Promise<{ so: SupplierOrder; created: boolean }> {
    const change = transition(null, { type: 'create', record, actor, trigger });
    const [made] = charge
      ? await this.db.transaction(async (tx) => {
          const so = await this.write(tx, change);
          if (so.length) await charge(tx);
          return so;
        })
      : await this.write(this.db, change);
    if (made) return { so: made, created: true };
    const existing = await this.forPart(record.storeId, record.orderId, record.partKey);
    if (!existing) throw errors.conflict('concurrentChange', 'The order part changed meanwhile; try again.');
    return { so: existing, created: false };
  }

  /** A supplier order made inside the caller's transaction (a reship, with its claim's outcome: ./claims/outcome.ts). */
  async createIn(tx: Queryable, record: NewSupplierOrder, actor: Actor, trigger: string): Promise<SupplierOrder> {
    const [made] = await this.write(tx, transition(null, { type: 'create', record, actor, trigger }));
    if (!made) throw errors.conflict('concurrentChange', 'The order part changed meanwhile; try again.');
    return made;
  }

  /** The connections a person may reroute the part to: its items' alternates' and their link's own. */
  connectionsOfPart(so: SupplierOrder): Promise<string[]> {
    return connectionsOfPart(this.db, so);
  }

  /**
   * A reroute, in one transaction: the items leave `so`'s part for the alternate's (orders' `PartMoves.moveItems`), `so` is
   * cancelled as rerouted (compare and set: it must still be paused), and the alternate's supplier order is made,
   * its history naming where the items came from. Either all of it is written or none. Routing's move is the same
   * transaction with `routedAway` (a queued order that sent nothing), the choice carried to the chosen order, and
   * written on `so` too by its own write there when `chosenNow` (routing writes its choice nowhere else).
   */
  async reroute(
    so: SupplierOrder,
    r: {
      rerouted: Extract<DispatchEvent, { type: 'rerouted' | 'routedAway' }>;
      record: NewSupplierOrder;
      tried: RerouteTry[];
      items: ItemsMove['items'];
      routing?: RoutingChoice;
      chosenNow?: boolean;
      earlier: EarlierOrder[];
    },
  ) {
    return this.db.transaction(async (tx) => {
      await this.parts.moveItems(tx, {
        storeId: so.storeId,
        orderId: so.orderId,
        fromKey: so.partKey,
        toKey: r.record.partKey,
        connectionId: r.record.connectionId,
        items: r.items,
      });
      const [first] = await this.write(tx, carrying(transition(so, r.rerouted), r.chosenNow ? r.routing : null));
      if (!first) throw errors.conflict('concurrentChange', 'The supplier order changed meanwhile; read it again.');
      const actor = r.rerouted.type === 'rerouted' && r.rerouted.actor.kind !== 'system' ? r.rerouted.actor : SYSTEM;
      const trigger = r.rerouted.type === 'rerouted' ? 'reroute' : 'routing';
      const made = transition(null, {
        type: 'create',
        record: r.record,
        actor,
        trigger,
        reroutedFrom: r.rerouted.details,
        tried: r.tried,
        earlier: r.earlier,
        ...(r.routing ? { routing: r.routing } : {}),
      });
      const [second] = await this.write(tx, made);
      if (!second) throw errors.conflict('concurrentChange', "The alternate's part changed meanwhile; try again.");
      return { first, second };
    });
  }

  /** Which of these records still have a step due: one read per store for a batch of finished jobs. */
  async stepDueAmong(refs: Array<{ id: string; storeId: string }>): Promise<PartRef[]> {
    const due: PartRef[] = [];
    for (const [storeId, ids] of groupByStore(refs)) due.push(...(await sql.stepDueAmong(this.db, storeId, ids)));
    return due;
  }

  /** Records with a step due that nothing touched for a while (a lost job, a crash between commit and send). */
  stale(olderThanSeconds: number, limit: number): Promise<PartRef[]> {
    return sql.staleWithStepDue(this.db, olderThanSeconds, limit);
  }

  /** Failed records whose backoff has passed. */
  dueForRetry(limit: number): Promise<SupplierOrder[]> {
    return sql.dueForRetry(this.db, limit);
  }

  /** The store's currency (set when the store is made, never changed): read once per store by this process. */
  async storeCurrency(storeId: string): Promise<string> {
    let known = this.currencies.get(storeId);
    if (!known) {
      known = await sql.storeCurrency(this.db, storeId);
      if (this.currencies.size > 10_000) this.currencies.clear();
      this.currencies.set(storeId, known);
    }
    return known;
  }

  /** The pairs parts of every store wait on for want of an exchange rate. */
  pairsWaitedOn() {
    return sql.pairsWaitedOn(this.db);
  }

  /** Parts of every store waiting on one of these pairs (`from>to`), by turns across stores. */
  waitingOnRate(pairs: string[], limit: number) {
    return sql.waitingOnRate(this.db, pairs, limit);
  }

  /** The last cost the pre-checks saw, offered for acceptance by retry with acceptCost. */
  lastSeenCost(storeId: string, soId: string): Promise<number | null> {
    return sql.lastSeenCost(this.db, storeId, soId);
  }
}

/** Ids by store. */
function groupByStore(refs: Array<{ id: string; storeId: string }>): Map<string, string[]> {
  const by = new Map<string, string[]>();
  for (const r of refs) by.set(r.storeId, [...(by.get(r.storeId) ?? []), r.id]);
  return by;
}
