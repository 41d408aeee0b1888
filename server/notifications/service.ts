import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Queryable } from '../platform/db';
import { Batcher } from '../platform/batching';
import { readAddressId, type SupplierConnection, type SupplierGateway } from '../connections';
import type { NotificationSubject } from '../suppliers/adapter';
import type { SupplierRegistry } from '../suppliers/registry';
import * as sql from './sql';
import type { Owner } from './sql';

/**
 * What a domain that keeps what notifications name offers them (dispatch: supplier orders; the catalogue: supplier
 * products), on its own read-back queue: which connections hold a subject, and read-backs queued in the caller's
 * transaction, one waiting per connection and subject however many ask.
 */
interface ReadBacks<Ask> {
  holders(connectionIds: string[], subjectId: string): Promise<Owner[]>;
  ask(tx: Queryable, asks: Ask[]): Promise<void>;
}
interface OrderAsk {
  connectionId: string;
  storeId: string;
  supplierOrderId: string;
  orderNumber?: string;
}
interface ProductAsk {
  connectionId: string;
  storeId: string;
  supplierProductId: string;
}
export type OrderReadBacks = ReadBacks<OrderAsk>;
export type ProductReadBacks = ReadBacks<ProductAsk>;

/** A read-back to ask for, keyed by connection and subject (one per batch). */
type ReadBackJob = { key: string } & ({ kind: 'order'; data: OrderAsk } | { kind: 'product'; data: ProductAsk });

interface Addressed {
  conn: SupplierConnection;
  /** The live connections on its supplier account, itself first. */
  account: Owner[];
}

/** The connection an address names, and its store (the address carries both, signed). */
interface Address {
  storeId: string;
  connectionId: string;
}

/** A verified notification waiting for its batch. */
interface Notified {
  storeId: string;
  connectionId: string;
  eventId: string;
  jobs: ReadBackJob[];
}

function readBackJob({ id: connectionId, storeId }: Owner, subject: NotificationSubject): ReadBackJob {
  if (subject.kind === 'order') {
    return {
      kind: 'order',
      key: `${connectionId}:${subject.supplierOrderId}`,
      data: { connectionId, storeId, supplierOrderId: subject.supplierOrderId, orderNumber: subject.orderNumber },
    };
  }
  return {
    kind: 'product',
    key: `${connectionId}:${subject.supplierProductId}`,
    data: { connectionId, storeId, supplierProductId: subject.supplierProductId },
  };
}

/**
 * The supplier notification address. A notification is only a prompt: once verified against the
 * addressed connection's own credentials it enqueues a read-back, one pending per supplier order or
 * product, for the connection (of any store on the same supplier account) that owns what it names.
 */
export class NotificationService {
  constructor(
    private readonly db: DataSource,
    private readonly registry: SupplierRegistry,
    private readonly gateway: SupplierGateway,
    private readonly readBacks: { order: OrderReadBacks; product: ProductReadBacks },
  ) {}

  /** Group commit of the verified notifications (see writeBatch). */
  private readonly batches = new Batcher<Notified, boolean>((items) => this.writeBatch(items));
  /** The addressed connections of concurrent requests, read together (one statement per store) with their supplier accounts' other live connections. */
  private readonly lookups = new Batcher<Address, Addressed | null>((addresses) => this.lookUp(addresses));

  /** Receipts are kept a day; the timestamp tolerance refuses anything older long before that. */
  async purgeReceipts(): Promise<void> {
    await sql.purgeReceipts(this.db);
  }

  /**
   * 'refused' for every reason alike; throws (answered 503) only when it cannot decide. `addressId` is the address's
   * integration id, which carries the connection and its store, signed.
   */
  async receive(
    supplierKey: string,
    addressId: string,
    rawBody: string | undefined,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<'accepted' | 'refused'> {
    const addressed = readAddressId(supplierKey, addressId, (v) => this.gateway.addressTag(v));
    if (!addressed || rawBody === undefined) return 'refused';
    const { connectionId, storeId } = addressed;
    const adapter = this.registry.find(supplierKey);
    if (!adapter || this.registry.isSwitchedOff(supplierKey)) return 'refused';
    const found = await this.lookups.submit({ storeId, connectionId });
    const conn = found?.conn;
    if (!found || !conn || conn.supplierKey !== supplierKey || conn.disconnectedAt || !conn.enabled || !conn.credentialsSealed) return 'refused';
    const flat: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(headers)) flat[k.toLowerCase()] = Array.isArray(v) ? v[0] : v;
    const verified = adapter.verifyNotification(this.gateway.context(conn, this.gateway.credentialsOf(conn)), { rawBody, headers: flat, now: new Date() });
    if (!verified || verified.subjects.length === 0) return 'refused';
    const eventId = (verified.eventId ?? crypto.createHash('sha256').update(rawBody).digest('hex')).slice(0, 200);
    // Where each read-back goes is read first; the receipt and the read-backs are then written together,
    // with the notifications of other requests, in one transaction (group commit). Answered once durable.
    const account = found.account;
    const jobs: ReadBackJob[] = [];
    for (const subject of verified.subjects) {
      for (const owner of await this.ownersOf(account, subject)) jobs.push(readBackJob(owner, subject));
    }
    return (await this.batches.submit({ storeId: conn.storeId, connectionId: conn.id, eventId, jobs })) ? 'accepted' : 'refused';
  }

  /**
   * The addressed connections, one statement per store, each with the live connections
   * on the same supplier account, itself first (as SharedAccounts.connectionIdsOf answers them), read after the
   * requests arrived, so a disconnect holds.
   */
  private async lookUp(addresses: Address[]): Promise<Array<Addressed | null>> {
    const byStore = new Map<string, Set<string>>();
    for (const a of addresses) byStore.set(a.storeId, (byStore.get(a.storeId) ?? new Set()).add(a.connectionId));
    const found = await Promise.all([...byStore].map(([storeId, ids]) => sql.connectionsInStore(this.db, storeId, [...ids])));
    const conns = found.flat();
    const keys = [...new Set(conns.flatMap((c) => (c.supplierAccountKey ? [c.supplierAccountKey] : [])))];
    const onAccount = keys.length ? await sql.liveOnAccounts(this.db, keys) : new Map<string, Owner[]>();
    const addressed = (conn: SupplierConnection): Addressed => {
      const others = (conn.supplierAccountKey ? (onAccount.get(conn.supplierAccountKey) ?? []) : []).filter((o) => o.id !== conn.id);
      return { conn, account: [{ id: conn.id, storeId: conn.storeId }, ...others] };
    };
    const byAddress = new Map(conns.map((c) => [c.id, c]));
    return addresses.map(({ storeId, connectionId }) => {
      const conn = byAddress.get(connectionId);
      return conn && conn.storeId === storeId ? addressed(conn) : null;
    });
  }

  /**
   * One batch of verified notifications in one transaction: the receipts (an event id seen before is a replay,
   * refused) and the connections' last notification time in one statement, then the read-backs of the fresh
   * ones in the same transaction, through the domains that work them (`stately` queues: one pending per supplier
   * order or product).
   */
  private async writeBatch(items: Notified[]): Promise<boolean[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.writeBatchOnce(items);
      } catch (err) {
        // Two processes' batches touching the same connections in another order: once more.
        if ((err as { code?: string }).code !== '40P01' || attempt > 2) throw err;
      }
    }
  }

  private async writeBatchOnce(items: Notified[]): Promise<boolean[]> {
    const qr = this.db.createQueryRunner();
    await qr.connect();
    try {
      await qr.startTransaction();
      // One statement per store, each on its store's shard, in the one transaction (stores in one order, as every process writes them).
      const byStore = new Map<string, Notified[]>();
      for (const n of items) {
        const own = byStore.get(n.storeId);
        if (own) own.push(n);
        else byStore.set(n.storeId, [n]);
      }
      const fresh: Array<{ connection_id: string; event_id: string }> = [];
      for (const storeId of [...byStore.keys()].sort()) {
        const own = byStore.get(storeId)!;
        fresh.push(
          ...(await sql.writeReceipts(
            qr,
            storeId,
            own.map((n) => n.connectionId),
            own.map((n) => n.eventId),
          )),
        );
      }
      // Only the first of the same event inside a batch is fresh; a repeat is a replay like any other.
      const unclaimed = new Set(fresh.map((r) => `${r.connection_id} ${r.event_id}`));
      const accepted = items.map((n) => unclaimed.delete(`${n.connectionId} ${n.eventId}`));
      const byKey = new Map<string, ReadBackJob>();
      items.forEach((n, i) => {
        if (accepted[i]) for (const job of n.jobs) if (!byKey.has(`${job.kind} ${job.key}`)) byKey.set(`${job.kind} ${job.key}`, job);
      });
      const jobs = [...byKey.values()];
      await this.readBacks.order.ask(
        qr,
        jobs.flatMap((j) => (j.kind === 'order' ? [j.data] : [])),
      );
      await this.readBacks.product.ask(
        qr,
        jobs.flatMap((j) => (j.kind === 'product' ? [j.data] : [])),
      );
      await qr.commitTransaction();
      return accepted;
    } catch (err) {
      if (qr.isTransactionActive) await qr.rollbackTransaction().catch(() => undefined);
      throw err;
    } finally {
      await qr.release();
    }
  }

  /**
   * The supplier account's one address serves every connection on it (several stores): the read-back goes to
   * the connections whose order or linked product it names, or to the addressed one when none is known here.
   */
  private async ownersOf(account: Owner[], subject: NotificationSubject): Promise<Owner[]> {
    if (account.length === 1) return account;
    const ids = account.map((o) => o.id);
    const owners =
      subject.kind === 'order'
        ? await this.readBacks.order.holders(ids, subject.supplierOrderId)
        : await this.readBacks.product.holders(ids, subject.supplierProductId);
    return owners.length ? owners : [account[0]];
  }
}
