import { rows, type Queryable } from '../../platform/db';
import { CHARGE } from './credits';

// The identity domain's statements on credit holds: credits taken before a request's work, given back for the units
// the work did not spend when the request ends, or by the sweep when it never ended (docs/decisions.md, "Credits").

export interface HoldKey {
  accountId: string;
  holdId: string;
}

/** Takes price × units with the charge's ledger row and the hold, in one statement; null when the balance is too low. */
export async function takeHeld(
  db: Queryable,
  e: HoldKey & { apiKeyId: string | null; action: string; price: number; units: number; requestId: string | null; leaseSeconds: number },
): Promise<number | null> {
  const [row] = await rows<{ credits: number }>(
    db,
    `WITH ${CHARGE}, held AS (
       INSERT INTO credit_holds (id, account_id, api_key_id, action, price, units, request_id, lease_until)
       SELECT $6, $1, $3, $4, $7, $8, $5, now() + make_interval(secs => $9) FROM charged
     )
     SELECT credits FROM charged`,
    [e.accountId, e.price * e.units, e.apiKeyId, e.action, e.requestId, e.holdId, e.price, e.units, e.leaseSeconds],
  );
  return row ? row.credits : null;
}

/** Marks units of the hold spent, in the transaction that does their work; false when the hold is no longer there. */
export async function spendHeld(tx: Queryable, k: HoldKey, units: number): Promise<boolean> {
  const r = await rows(
    tx,
    'UPDATE credit_holds SET units_spent = units_spent + $3 WHERE account_id = $1 AND id = $2 AND units_spent + $3 <= units RETURNING id',
    [k.accountId, k.holdId, units],
  );
  return r.length > 0;
}

/** The request is still running: its hold is not to be swept before the lease ends. */
export async function renewHeld(db: Queryable, k: HoldKey, leaseSeconds: number): Promise<void> {
  await rows(db, 'UPDATE credit_holds SET lease_until = now() + make_interval(secs => $3) WHERE account_id = $1 AND id = $2', [
    k.accountId,
    k.holdId,
    leaseSeconds,
  ]);
}

/**
 * Ends the hold and refunds its unspent units with a ledger row, in one statement: whoever removes the hold refunds it,
 * so the request's end and the sweep never both do. `lapsedOnly`: only once its lease has ended (the sweep). A spend
 * committing meanwhile is waited for, and the refund counts it. Answers the credits refunded, or null (no hold).
 */
export async function releaseHeld(db: Queryable, k: HoldKey, lapsedOnly: boolean): Promise<number | null> {
  const [row] = await rows<{ refund: number }>(
    db,
    `WITH released AS (
       DELETE FROM credit_holds WHERE account_id = $1 AND id = $2 AND (NOT $3::boolean OR lease_until < now())
       RETURNING account_id, api_key_id, action, request_id, (units - units_spent) * price AS refund
     ), credited AS (
       UPDATE accounts a SET credits = a.credits + r.refund FROM released r WHERE a.id = r.account_id AND r.refund > 0 RETURNING a.credits
     ), ledger AS (
       INSERT INTO credit_ledger (account_id, api_key_id, action, amount, balance_after, request_id)
       SELECT r.account_id, r.api_key_id, r.action || '.refund', r.refund, c.credits, r.request_id FROM released r, credited c
     )
     SELECT refund FROM released`,
    [k.accountId, k.holdId, lapsedOnly],
  );
  return row ? row.refund : null;
}

/** Holds whose lease ended (their process stopped renewing them), oldest first, of every account. */
export function lapsedHolds(db: Queryable, limit: number): Promise<Array<{ account_id: string; id: string }>> {
  return rows(db, 'SELECT /* cross-store: credit-hold-sweep */ account_id, id FROM credit_holds WHERE lease_until < now() ORDER BY lease_until LIMIT $1', [
    limit,
  ]);
}
