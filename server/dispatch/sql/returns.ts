import { preparedRows, type Queryable, rows } from '../../platform/db';
import type { PartReturn, ReturnItem, ReturnRefund } from '../returns/types';

// Returns on the store's side (../returns/): the return's row, how many of each item the part's returns hold (read
// under the part's row lock, so two returns cannot both pass the check), and the refund moved by compare and set.

interface ReturnRow {
  store_id: string;
  id: string;
  supplier_order_id: string;
  order_id: string;
  reason: PartReturn['reason'];
  note: string;
  items: ReturnItem[];
  claim_id: string | null;
  refund_amount_minor: string | null;
  refund_currency: string | null;
  refund_status: ReturnRefund['status'] | null;
  refund_key: string | null;
  refund_payment_reference: string | null;
  refund_message: string | null;
  refund_requested_at: Date | null;
  created_by_account_id: string;
  created_by_key_id: string | null;
  actor_kind: PartReturn['actor']['kind'];
  actor_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Named, not `*`: the reads are prepared statements. */
const COLUMNS = `store_id, id, supplier_order_id, order_id, reason, note, items, claim_id, refund_amount_minor, refund_currency, refund_status, refund_key,
  refund_payment_reference, refund_message, refund_requested_at, created_by_account_id, created_by_key_id, actor_kind, actor_id, created_at, updated_at`;

const returnOf = (r: ReturnRow): PartReturn => ({
  id: r.id,
  storeId: r.store_id,
  supplierOrderId: r.supplier_order_id,
  orderId: r.order_id,
  reason: r.reason,
  note: r.note,
  items: r.items,
  claimId: r.claim_id,
  refund:
    r.refund_status === null
      ? null
      : {
          amountMinor: Number(r.refund_amount_minor),
          currency: r.refund_currency!,
          status: r.refund_status,
          key: r.refund_key!,
          paymentReference: r.refund_payment_reference,
          message: r.refund_message,
          requestedAt: r.refund_requested_at,
        },
  createdByAccountId: r.created_by_account_id,
  createdByKeyId: r.created_by_key_id,
  actor: { kind: r.actor_kind, id: r.actor_id },
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The part's row, locked until the transaction ends: the returns of one part are recorded one after another. */
export async function lockPart(tx: Queryable, storeId: string, supplierOrderId: string): Promise<boolean> {
  return (await rows(tx, 'SELECT id FROM supplier_orders WHERE store_id = $1 AND id = $2 FOR UPDATE', [storeId, supplierOrderId])).length > 0;
}

/** How many of each item of the part its returns hold, by the store order's item id. */
export async function returnedOfPart(db: Queryable, storeId: string, supplierOrderId: string): Promise<Map<string, number>> {
  const found = await rows<{ item_id: string; quantity: string }>(
    db,
    `SELECT i->>'itemId' AS item_id, sum((i->>'quantity')::int) AS quantity FROM part_returns r, jsonb_array_elements(r.items) i
      WHERE r.store_id = $1 AND r.supplier_order_id = $2 GROUP BY 1`,
    [storeId, supplierOrderId],
  );
  return new Map(found.map((r) => [r.item_id, Number(r.quantity)]));
}

export async function insertReturn(tx: Queryable, r: PartReturn): Promise<PartReturn> {
  const [row] = await rows<ReturnRow>(
    tx,
    `INSERT INTO part_returns (store_id, id, supplier_order_id, order_id, reason, note, items, claim_id, refund_amount_minor, refund_currency, refund_status,
                               refund_key, created_by_account_id, created_by_key_id, actor_kind, actor_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING ${COLUMNS}`,
    [
      r.storeId,
      r.id,
      r.supplierOrderId,
      r.orderId,
      r.reason,
      r.note,
      JSON.stringify(r.items),
      r.claimId,
      r.refund?.amountMinor ?? null,
      r.refund?.currency ?? null,
      r.refund?.status ?? null,
      r.refund?.key ?? null,
      r.createdByAccountId,
      r.createdByKeyId,
      r.actor.kind,
      r.actor.id,
    ],
  );
  return returnOf(row);
}

export async function returnById(db: Queryable, storeId: string, id: string): Promise<PartReturn | null> {
  const [r] = await preparedRows<ReturnRow>(db, `SELECT ${COLUMNS} FROM part_returns WHERE store_id = $1 AND id = $2`, [storeId, id]);
  return r ? returnOf(r) : null;
}

export async function returnsOfPart(db: Queryable, storeId: string, supplierOrderId: string): Promise<PartReturn[]> {
  return (
    await preparedRows<ReturnRow>(db, `SELECT ${COLUMNS} FROM part_returns WHERE store_id = $1 AND supplier_order_id = $2 ORDER BY created_at, id`, [
      storeId,
      supplierOrderId,
    ])
  ).map(returnOf);
}

/** The refund's answer written only while it is still `sending` (compare and set); null when another request wrote it first. */
export async function settleRefund(
  tx: Queryable,
  r: PartReturn,
  to: { status: 'requested' | 'refused'; paymentReference: string | null; message: string | null },
): Promise<PartReturn | null> {
  const [row] = await rows<ReturnRow>(
    tx,
    `UPDATE part_returns SET refund_status = $3, refund_payment_reference = coalesce($4, refund_payment_reference), refund_message = $5,
            refund_requested_at = CASE WHEN $3 = 'requested' THEN now() ELSE refund_requested_at END, updated_at = now()
      WHERE store_id = $1 AND id = $2 AND refund_status = 'sending' RETURNING ${COLUMNS}`,
    [r.storeId, r.id, to.status, to.paymentReference, to.message],
  );
  return row ? returnOf(row) : null;
}

/** A refund whose answer was not had (a 503, a lost answer): why, kept on the return while it stays `sending`. */
export async function noteRefund(db: Queryable, r: PartReturn, message: string): Promise<void> {
  await rows(db, `UPDATE part_returns SET refund_message = $3, updated_at = now() WHERE store_id = $1 AND id = $2 AND refund_status = 'sending'`, [
    r.storeId,
    r.id,
    message,
  ]);
}

/** The credit the supplier gave on a claim (its refund), in the store's currency at its recorded rate; null when none. */
export async function claimCreditOf(db: Queryable, storeId: string, claimId: string): Promise<{ amountMinor: number | null; currency: string } | null> {
  const [r] = await preparedRows<{ store_amount_minor: string | null; store_currency: string }>(
    db,
    `SELECT store_amount_minor, store_currency FROM supplier_credits WHERE store_id = $1 AND kind = 'claimRefund' AND source_key = $2`,
    [storeId, claimId],
  );
  return r ? { amountMinor: r.store_amount_minor === null ? null : Number(r.store_amount_minor), currency: r.store_currency } : null;
}
