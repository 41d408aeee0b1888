import type { DataSource } from 'typeorm';
import type { Logger } from '../platform/logger';
import type { SupplierRegistry } from '../suppliers/registry';
import type { SupplierOrderRecords } from './records';
import { markReconciled, stampIdentity, unsentOn } from './sql/rewind';

const PAGE = 200;

/**
 * Notices that the database went back in time (restored from an older backup, or a standby promoted) and reconciles
 * before parts are sent (docs/decisions.md, "A database that goes back in time"). Most suppliers need nothing: every
 * create looks our number up at the supplier first, so an order sent after the records' moment is adopted. A supplier
 * that cannot be asked by number (`ordersFoundBy: 'memory'` on its adapter) answers from the service's memory, which went
 * back too: its parts that the records say were never sent are paused `orderNumberUnverifiable` for a person to look,
 * rather than guessed at.
 */
export class RewindWatch {
  constructor(
    private readonly db: DataSource,
    private readonly records: SupplierOrderRecords,
    private readonly registry: SupplierRegistry,
    private readonly log: Logger,
  ) {}

  /** Answers how many parts it paused; nothing when the identity is the one stamped and nothing is left to finish. */
  async check(): Promise<number> {
    const stamp = await stampIdentity(this.db).catch((err: { code?: string }) => {
      // A release started before its migrations ran (docs/scaling.md) has no stamp yet: a later sweep looks.
      if (err.code === '42P01') return null;
      throw err;
    });
    if (!stamp?.reconcileDue) return 0;
    this.log.warn(
      { previous: stamp.previous, current: stamp.current },
      'the database went back in time (restored or failed over): reconciling with the suppliers',
    );
    const keys = this.registry
      .adapters()
      .filter((a) => a.ordersFoundBy === 'memory')
      .map((a) => a.entry.key);
    let paused = 0;
    let after: string | null = null;
    while (keys.length) {
      const page = await unsentOn(this.db, keys, after, PAGE);
      for (const part of page) if (await this.pause(part.id, part.store_id)) paused++;
      if (page.length < PAGE) break;
      after = page[page.length - 1].id;
    }
    await markReconciled(this.db, stamp.current);
    this.log.info({ paused }, 'reconciled with the suppliers after the database went back in time');
    return paused;
  }

  private async pause(id: string, storeId: string): Promise<boolean> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const so = await this.records.load(id, storeId);
      if (!so || so.supplierOrderId || (so.status !== 'queued' && so.status !== 'failed')) return false;
      const message = `The service's records went back in time, and ${this.registry.find(so.supplierKey)?.entry.name ?? so.supplierKey} cannot be asked whether it already holds this part's supplier order number: look for it there before retrying.`;
      try {
        await this.records.change(so, { type: 'paused', reason: 'orderNumberUnverifiable', message, details: { supplierOrderNumber: so.supplierOrderNumber } });
        return true;
      } catch {
        // Moved meanwhile (its job ran): look again.
      }
    }
    return false;
  }
}
