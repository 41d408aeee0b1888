import { type Queryable, rows } from '../../platform/db';
import type { OnePaymentStatus, PaymentRecord } from '../payment-rule';
import { paymentDeltaCtes } from './profit';

// Each provider payment of a store order (store_order_payments), and what a refund changes in the profit report.

interface PaymentRow {
  order_id: string;
  reference: string;
  amount_minor: string;
  currency: string;
  status: OnePaymentStatus;
  refunded_minor: string;
  version: number | null;
  occurred_at: Date;
  disputed: boolean;
  updated_at: Date;
}

const COLUMNS = 'order_id, reference, amount_minor, currency, status, refunded_minor, version, occurred_at, disputed, updated_at';

export type StoredPayment = PaymentRecord & { orderId: string; updatedAt: Date };

const fromRow = (r: PaymentRow): StoredPayment => ({
  orderId: r.order_id,
  reference: r.reference,
  amountMinor: Number(r.amount_minor),
  currency: r.currency,
  status: r.status,
  refundedMinor: Number(r.refunded_minor),
  version: r.version,
  occurredAt: r.occurred_at,
  disputed: r.disputed,
  updatedAt: r.updated_at,
});

/**
 * The payments of these orders (one store's), oldest first. Outside a transaction, none while the table is not there
 * yet (its migration waits for the previous release to stop: docs/scaling.md, "Changing the keys without downtime").
 */
export async function paymentsOfOrders(db: Queryable, storeId: string, orderIds: string[], opts: { beforeMigration?: boolean } = {}): Promise<StoredPayment[]> {
  if (!orderIds.length) return [];
  try {
    const found = await rows<PaymentRow>(
      db,
      `SELECT ${COLUMNS} FROM store_order_payments WHERE store_id = $1 AND order_id = ANY($2) ORDER BY created_at, reference`,
      [storeId, orderIds],
    );
    return found.map(fromRow);
  } catch (err) {
    if (opts.beforeMigration && (err as { code?: string }).code === '42P01') return [];
    throw err;
  }
}

/** Writes one payment as it is now (the caller holds its order's row). */
export async function savePayment(tx: Queryable, storeId: string, orderId: string, p: PaymentRecord): Promise<void> {
  await rows(
    tx,
    `INSERT INTO store_order_payments (store_id, order_id, reference, amount_minor, currency, status, refunded_minor, version, occurred_at, disputed)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (store_id, order_id, reference) DO UPDATE SET status = EXCLUDED.status, refunded_minor = EXCLUDED.refunded_minor, version = EXCLUDED.version,
       occurred_at = EXCLUDED.occurred_at, disputed = EXCLUDED.disputed, updated_at = now()`,
    [storeId, orderId, p.reference, p.amountMinor, p.currency, p.status, p.refundedMinor, p.version, p.occurredAt, p.disputed],
  );
}

/**
 * A refund takes its amount out of the order's revenue in the profit report's sums and counts as a refund there:
 * deltas appended (folded later, as the parts' are) on the order's day, split to its parts and their products as a
 * fee is (./profit.ts `paymentDeltaCtes`). Only for an order in the store's currency, as its parts' revenue is.
 */
export async function appendRefundDelta(tx: Queryable, storeId: string, orderId: string, refundedMinor: number): Promise<void> {
  await rows(
    tx,
    `WITH pay AS (SELECT o.store_id, o.id AS order_id, (o.created_at AT TIME ZONE 'UTC')::date AS day, 0::bigint AS fee_minor, $3::bigint AS refund_minor
                    FROM store_orders o JOIN stores st ON st.id = $1 WHERE o.store_id = $1 AND o.id = $2 AND trim(o.currency) = trim(st.currency)),
          ${paymentDeltaCtes('$1', 'pay')}
     SELECT count(*)::int AS n FROM pay_delta`,
    [storeId, orderId, refundedMinor],
  );
}
