import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import { sqlRows } from '../platform/db';
import type { Boss } from '../platform/jobs';
import type { SupplierGateway } from '../connections/gateway';
import type { ConnectionService } from '../connections/service';
import type { NotificationSubject } from '../suppliers/adapter';
import type { SupplierRegistry } from '../suppliers/registry';

export const READBACK_QUEUES = { order: 'readback.supplier-order', product: 'readback.supplier-product' } as const;

export interface OrderReadBack {
  connectionId: string;
  supplierOrderId: string;
  orderNumber?: string;
}

export interface ProductReadBack {
  connectionId: string;
  supplierProductId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The supplier notification address. A notification is only a prompt: once verified against the
 * addressed connection's own credentials it enqueues a read-back, one pending per supplier order or
 * product, for the connection (of any store on the same supplier account) that owns what it names.
 */
export class NotificationService {
  constructor(
    private readonly db: DataSource,
    private readonly registry: SupplierRegistry,
    private readonly connections: ConnectionService,
    private readonly gateway: SupplierGateway,
    private readonly boss: () => Boss,
  ) {}

  /** Receipts are kept a day; the timestamp tolerance refuses anything older long before that. */
  async purgeReceipts(): Promise<void> {
    await this.db.query(`DELETE FROM supplier_notification_receipts WHERE received_at < now() - interval '1 day'`);
  }

  /** 'refused' for every reason alike; throws (answered 503) only when it cannot decide. */
  async receive(supplierKey: string, integrationId: string, rawBody: string | undefined, headers: Record<string, string | string[] | undefined>): Promise<'accepted' | 'refused'> {
    if (!UUID.test(integrationId) || rawBody === undefined) return 'refused';
    const adapter = this.registry.find(supplierKey);
    if (!adapter || this.registry.isSwitchedOff(supplierKey)) return 'refused';
    const conn = await this.connections.findById(integrationId);
    if (!conn || conn.supplierKey !== supplierKey || conn.disconnectedAt || !conn.enabled || !conn.credentialsSealed) return 'refused';
    const flat: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(headers)) flat[k.toLowerCase()] = Array.isArray(v) ? v[0] : v;
    const verified = adapter.verifyNotification(this.gateway.context(conn, this.gateway.credentialsOf(conn)), { rawBody, headers: flat, now: new Date() });
    if (!verified || verified.subjects.length === 0) return 'refused';
    // The receipt and the time are written together; an event id seen before is a replay.
    const eventId = verified.eventId ?? crypto.createHash('sha256').update(rawBody).digest('hex');
    const fresh = await sqlRows(
      this.db,
      `WITH receipt AS (
         INSERT INTO supplier_notification_receipts (connection_id, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1
       )
       UPDATE supplier_connections SET last_webhook_at = now() WHERE id = $1 AND EXISTS (SELECT 1 FROM receipt) RETURNING id`,
      [conn.id, eventId.slice(0, 200)],
    );
    if (!fresh.length) return 'refused';
    const account = await this.connections.accounts.connectionIdsOf(conn);
    for (const subject of verified.subjects) {
      for (const owner of await this.ownersOf(account, subject)) await this.enqueue(owner, subject);
    }
    return 'accepted';
  }

  /**
   * The supplier account's one address serves every connection on it (several stores): the read-back goes to
   * the connections whose order or linked product it names, or to the addressed one when none is known here.
   */
  private async ownersOf(account: string[], subject: NotificationSubject): Promise<string[]> {
    if (account.length === 1) return account;
    const rows =
      subject.kind === 'order'
        ? await sqlRows<{ id: string }>(this.db, 'SELECT DISTINCT connection_id AS id FROM supplier_orders WHERE connection_id = ANY($1) AND supplier_order_id = $2', [account, subject.supplierOrderId])
        : await sqlRows<{ id: string }>(this.db, 'SELECT DISTINCT connection_id AS id FROM product_links WHERE connection_id = ANY($1) AND supplier_product_id = $2', [account, subject.supplierProductId]);
    return rows.length ? rows.map((r) => r.id) : [account[0]];
  }

  private async enqueue(connectionId: string, subject: NotificationSubject): Promise<void> {
    // The queues are `stately`: a second send while one read-back waits returns null, so notifications coalesce.
    if (subject.kind === 'order') {
      const data: OrderReadBack = { connectionId, supplierOrderId: subject.supplierOrderId, orderNumber: subject.orderNumber };
      await this.boss().send(READBACK_QUEUES.order, data, { singletonKey: `${connectionId}:${subject.supplierOrderId}` });
    } else {
      const data: ProductReadBack = { connectionId, supplierProductId: subject.supplierProductId };
      await this.boss().send(READBACK_QUEUES.product, data, { singletonKey: `${connectionId}:${subject.supplierProductId}` });
    }
  }
}
