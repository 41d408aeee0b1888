import { type Queryable, rows } from '../../platform/db';

// An account's credits: taken and added in one statement each, with their ledger entry (credit_ledger).

/**
 * The charge as common table expressions (`charged`, `ledger`): $1 the account, $2 the amount, $3 the key, $4 the
 * action, $5 the request; `charged` answers the balance after, no row when it was too low. A hold's take adds to it.
 */
export const CHARGE = `charged AS (
       UPDATE accounts SET credits = credits - $2 WHERE id = $1 AND credits >= $2 RETURNING credits
     ), ledger AS (
       INSERT INTO credit_ledger (account_id, api_key_id, action, amount, balance_after, request_id)
       SELECT $1, $3, $4, -$2, credits, $5 FROM charged
     )`;

/** Takes the credits in one conditional update, with its ledger entry; null when the balance is too low. */
export async function takeCredits(
  db: Queryable,
  e: { accountId: string; apiKeyId: string | null; action: string; amount: number; requestId: string | null },
): Promise<number | null> {
  const [row] = await rows<{ credits: number }>(db, `WITH ${CHARGE} SELECT credits FROM charged`, [e.accountId, e.amount, e.apiKeyId, e.action, e.requestId]);
  return row ? row.credits : null;
}

export async function creditBalance(db: Queryable, accountId: string): Promise<number | null> {
  const [row] = await rows<{ credits: number }>(db, 'SELECT credits FROM accounts WHERE id = $1', [accountId]);
  return row ? row.credits : null;
}

/** Adds credits, with their ledger entry (and the operator's reason for a grant). */
export async function addCredits(
  db: Queryable,
  e: { accountId: string; apiKeyId: string | null; action: string; amount: number; requestId: string | null; reason?: string | null },
): Promise<void> {
  await rows(
    db,
    `WITH credited AS (UPDATE accounts SET credits = credits + $2 WHERE id = $1 RETURNING credits)
     INSERT INTO credit_ledger (account_id, api_key_id, action, amount, balance_after, request_id, reason)
     SELECT $1, $3, $4, $2, credits, $5, $6 FROM credited`,
    [e.accountId, e.amount, e.apiKeyId, e.action, e.requestId, e.reason ?? null],
  );
}

export function ledgerOf(
  db: Queryable,
  accountId: string,
  limit: number,
): Promise<
  Array<{
    id: string;
    action: string;
    amount: number;
    balance_after: number;
    api_key_id: string | null;
    request_id: string | null;
    reason: string | null;
    created_at: Date;
  }>
> {
  return rows(
    db,
    `SELECT id, action, amount, balance_after, api_key_id, request_id, reason, created_at FROM credit_ledger WHERE account_id = $1 ORDER BY id DESC LIMIT $2`,
    [accountId, limit],
  );
}
