import type { SupplierGateway } from '../connections';
import { ApiError } from '../platform/errors';
import type { Logger } from '../platform/logger';
import { landedOfAnswer, type StoreRates } from './landed';
import type { SupplierOrderRecords } from './records';
import type { SupplierOrder } from './supplier-order';

/**
 * A supplier order read back (after a notification, or the safety net): the supplier's view applied as any other
 * answer, through the one transition, with the landed costs it records.
 */
export class SupplierOrderReadBack {
  constructor(
    private readonly records: SupplierOrderRecords,
    private readonly gateway: SupplierGateway,
    private readonly rates: StoreRates,
    private readonly log: Logger,
    /** The order's claims still at the supplier are asked again with it (./claims/job.ts). */
    private readonly followClaims: (so: SupplierOrder) => Promise<void> = async () => undefined,
  ) {}

  async run(connectionId: string, supplierOrderId: string, storeId: string): Promise<boolean> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const so = await this.records.bySupplierId(connectionId, supplierOrderId, storeId);
      if (!so) return false;
      const conn = await this.records.connection(so.storeId, so.connectionId);
      if (!conn || conn.disconnectedAt || !conn.credentialsSealed) return false;
      const answer = await this.gateway.call(conn, (a, ctx) => a.getOrder(ctx, supplierOrderId));
      try {
        // Read again after the supplier's answer: the record may have moved while we waited for it.
        const now = (await this.records.load(so.id, so.storeId)) ?? so;
        const landed = await landedOfAnswer(now, answer, {}, { rates: this.rates, storeCurrency: (id) => this.records.storeCurrency(id), log: this.log });
        // The delivery watch follows what it says of the parcel, by the connection's thresholds as they are now (./delivery/).
        const written = await this.records.change(now, { type: 'supplierAnswered', answer, history: 'readBack', landed, watch: conn.automation.deliveryWatch });
        await this.followClaims(written);
        return true;
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 'concurrentChange')) throw err;
      }
    }
    this.log.warn({ supplierOrderId }, 'read-back kept meeting concurrent changes');
    return false;
  }
}
