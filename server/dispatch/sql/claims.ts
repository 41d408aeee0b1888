import { affected, preparedRows, type Queryable, rows } from '../../platform/db';
import { errors } from '../../platform/errors';
import type { Claim, ClaimItem, ClaimOutcome } from '../claims/types';

// Claims with the supplier (../claims/): the claim's row and its items (each item in one live claim at most: a partial
// unique index), the claim moved by compare and set on its status, and those due a read-back. The part's items are
// read from the orders domain's table.

interface ClaimRow {
  store_id: string;
  id: string;
  supplier_order_id: string;
  order_id: string;
  connection_id: string;
  supplier_key: string;
  via: Claim['via'];
  reason: Claim['reason'];
  expectation: Claim['expectation'];
  items: ClaimItem[];
  message: string;
  evidence: string[];
  status: Claim['status'];
  supplier_claim_id: string | null;
  supplier_status: string | null;
  outcome: ClaimOutcome | null;
  deadline: Date | null;
  cancel_requested: boolean;
  created_by_account_id: string;
  created_by_key_id: string | null;
  actor_kind: Claim['actor']['kind'];
  actor_id: string | null;
  created_at: Date;
  updated_at: Date;
  closed_at: Date | null;
}

/** Named, not `*`: the reads are prepared statements. */
const COLUMNS = `store_id, id, supplier_order_id, order_id, connection_id, supplier_key, via, reason, expectation, items, message, evidence, status, supplier_claim_id,
  supplier_status, outcome, deadline, cancel_requested, created_by_account_id, created_by_key_id, actor_kind, actor_id, created_at, updated_at, closed_at`;

const claimOf = (r: ClaimRow): Claim => ({
  id: r.id,
  storeId: r.store_id,
  supplierOrderId: r.supplier_order_id,
  orderId: r.order_id,
  connectionId: r.connection_id,
  supplierKey: r.supplier_key,
  via: r.via,
  reason: r.reason,
  expectation: r.expectation,
  items: r.items,
  message: r.message,
  evidence: r.evidence,
  status: r.status,
  supplierClaimId: r.supplier_claim_id,
  supplierStatus: r.supplier_status,
  outcome: r.outcome,
  deadline: r.deadline,
  cancelRequested: r.cancel_requested,
  createdByAccountId: r.created_by_account_id,
  createdByKeyId: r.created_by_key_id,
  actor: { kind: r.actor_kind, id: r.actor_id },
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  closedAt: r.closed_at,
});

/** The part's items (the orders domain's rows): what a claim may name. */
export function itemsOfPart(
  db: Queryable,
  storeId: string,
  orderId: string,
  partKey: string,
): Promise<Array<{ id: string; sku: string; quantity: number; supplierVariantId: string | null }>> {
  return preparedRows(
    db,
    'SELECT id, sku, quantity, supplier_variant_id AS "supplierVariantId" FROM store_order_items WHERE store_id = $1 AND order_id = $2 AND group_key = $3 ORDER BY position',
    [storeId, orderId, partKey],
  );
}

/** A new claim and its items; a second live claim on one of the items is refused here, by the database (409 claimExists). */
export async function insertClaim(tx: Queryable, c: Claim): Promise<Claim> {
  try {
    const [r] = await rows<ClaimRow>(
      tx,
      `INSERT INTO supplier_claims (store_id, id, supplier_order_id, order_id, connection_id, supplier_key, via, reason, expectation, items, message, evidence, status, deadline,
                                    next_check_at, created_by_account_id, created_by_key_id, actor_kind, actor_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12::jsonb, $13, $14, CASE WHEN $7 = 'api' THEN now() END, $15, $16, $17, $18) RETURNING *`,
      [
        c.storeId,
        c.id,
        c.supplierOrderId,
        c.orderId,
        c.connectionId,
        c.supplierKey,
        c.via,
        c.reason,
        c.expectation,
        JSON.stringify(c.items),
        c.message,
        JSON.stringify(c.evidence),
        c.status,
        c.deadline,
        c.createdByAccountId,
        c.createdByKeyId,
        c.actor.kind,
        c.actor.id,
      ],
    );
    await affected(tx, `INSERT INTO supplier_claim_items (store_id, claim_id, supplier_order_id, item_id) SELECT $1, $2, $3, unnest($4::uuid[])`, [
      c.storeId,
      c.id,
      c.supplierOrderId,
      c.items.map((i) => i.itemId),
    ]);
    return claimOf(r);
  } catch (err) {
    if ((err as { code?: string }).code === '23505')
      throw errors.conflict('claimExists', 'A claim on some of these items is open, or was won, already: one claim per item.');
    throw err;
  }
}

export async function claimById(db: Queryable, storeId: string, id: string): Promise<Claim | null> {
  const [r] = await preparedRows<ClaimRow>(db, `SELECT ${COLUMNS} FROM supplier_claims WHERE store_id = $1 AND id = $2`, [storeId, id]);
  return r ? claimOf(r) : null;
}

export async function claimsOfOrder(db: Queryable, storeId: string, supplierOrderId: string): Promise<Claim[]> {
  return (
    await preparedRows<ClaimRow>(db, `SELECT ${COLUMNS} FROM supplier_claims WHERE store_id = $1 AND supplier_order_id = $2 ORDER BY created_at, id`, [
      storeId,
      supplierOrderId,
    ])
  ).map(claimOf);
}

/** The claims of a supplier order the supplier still holds undecided (a read-back of the order asks them again). */
export async function liveClaimsOf(db: Queryable, storeId: string, supplierOrderId: string): Promise<Array<{ id: string; storeId: string }>> {
  return preparedRows(
    db,
    `SELECT id, store_id AS "storeId" FROM supplier_claims WHERE store_id = $1 AND supplier_order_id = $2 AND status IN ('sending', 'open')`,
    [storeId, supplierOrderId],
  );
}

/**
 * A claim moved by compare and set on the status it was read with: its new status and fields, closed with its outcome
 * (a rejected, withdrawn or stopped one releasing its items). Answers the claim as written, or null if it moved meanwhile.
 */
export async function moveClaim(
  tx: Queryable,
  c: Claim,
  to: Partial<Pick<Claim, 'status' | 'supplierClaimId' | 'supplierStatus' | 'outcome' | 'cancelRequested'>> & { nextCheckAt?: Date | null },
): Promise<Claim | null> {
  const [r] = await rows<ClaimRow>(
    tx,
    `UPDATE supplier_claims SET status = coalesce($3, status), supplier_claim_id = coalesce($4, supplier_claim_id), supplier_status = coalesce($5, supplier_status),
            outcome = coalesce($6::jsonb, outcome), cancel_requested = coalesce($7, cancel_requested),
            next_check_at = CASE WHEN coalesce($3, status) IN ('closed', 'withPerson') THEN NULL WHEN $9 THEN $8 ELSE next_check_at END,
            closed_at = CASE WHEN $3 = 'closed' THEN now() ELSE closed_at END, updated_at = now()
      WHERE store_id = $1 AND id = $2 AND status = $10 RETURNING *`,
    [
      c.storeId,
      c.id,
      to.status ?? null,
      to.supplierClaimId ?? null,
      to.supplierStatus ?? null,
      to.outcome ? JSON.stringify(to.outcome) : null,
      to.cancelRequested ?? null,
      to.nextCheckAt ?? null,
      'nextCheckAt' in to,
      c.status,
    ],
  );
  if (r && r.status === 'closed' && r.outcome && ['rejected', 'cancelled', 'stopped'].includes(r.outcome.kind)) {
    await affected(tx, 'UPDATE supplier_claim_items SET released = true WHERE store_id = $1 AND claim_id = $2', [c.storeId, c.id]);
  }
  return r ? claimOf(r) : null;
}

/** Open claims of every store whose read-back came due (a lost job, a crash between two checks), soonest first. */
export function claimsDue(db: Queryable, limit: number): Promise<Array<{ id: string; storeId: string }>> {
  return rows(
    db,
    `SELECT /* cross-store: claim-checks */ id, store_id AS "storeId" FROM supplier_claims WHERE next_check_at <= now() ORDER BY next_check_at LIMIT $1`,
    [limit],
  );
}
