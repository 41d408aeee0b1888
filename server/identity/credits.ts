import type { DataSource, EntityManager } from 'typeorm';
import { errors } from '../platform/errors';
import { creditsCharged } from '../platform/metrics';

import type { Payer } from '../platform/http/route';

export const SIGN_UP_CREDITS = 100;

export class CreditService {
  constructor(private readonly db: DataSource) {}

  /**
   * Takes `amount` credits in one conditional update so concurrent calls can never overdraw. Prices live on the
   * routes (`RouteDef.credits`); this only moves credits and writes the ledger.
   */
  async charge(payer: Payer, action: string, amount: number, requestId: string | null, tx?: EntityManager): Promise<void> {
    if (amount <= 0) return;
    const { accountId, apiKeyId } = payer;
    const rows: Array<{ credits: number }> = await (tx ?? this.db).query(
      `WITH charged AS (
         UPDATE accounts SET credits = credits - $2 WHERE id = $1 AND credits >= $2 RETURNING credits
       ), ledger AS (
         INSERT INTO credit_ledger (account_id, api_key_id, action, amount, balance_after, request_id)
         SELECT $1, $3, $4, -$2, credits, $5 FROM charged
       )
       SELECT credits FROM charged`,
      [accountId, amount, apiKeyId, action, requestId],
    );
    if (!rows.length) {
      const [acc] = await (tx ?? this.db).query('SELECT credits FROM accounts WHERE id = $1', [accountId]);
      throw errors.insufficientCredits(amount, acc?.credits ?? 0);
    }
    creditsCharged.inc({ action }, amount);
  }

  /** Gives back `amount` of a charge for `action`, as its own ledger row. */
  async refund(payer: Payer, action: string, amount: number, requestId: string | null): Promise<void> {
    if (amount > 0) await this.credit(payer.accountId, payer.apiKeyId, `${action}.refund`, amount, requestId);
  }

  async credit(accountId: string, apiKeyId: string | null, action: string, amount: number, requestId: string | null): Promise<void> {
    await this.db.query(
      `WITH credited AS (UPDATE accounts SET credits = credits + $2 WHERE id = $1 RETURNING credits)
       INSERT INTO credit_ledger (account_id, api_key_id, action, amount, balance_after, request_id)
       SELECT $1, $3, $4, $2, credits, $5 FROM credited`,
      [accountId, amount, apiKeyId, action, requestId],
    );
  }

  /** The newest ledger entries of the account: charges, refunds and top-ups, each with the balance after it. */
  async ledger(accountId: string, limit: number): Promise<CreditLedgerView[]> {
    const rows: Array<{ id: string; action: string; amount: number; balance_after: number; api_key_id: string | null; request_id: string | null; created_at: Date }> = await this.db.query(
      `SELECT id, action, amount, balance_after, api_key_id, request_id, created_at FROM credit_ledger WHERE account_id = $1 ORDER BY id DESC LIMIT $2`,
      [accountId, limit],
    );
    return rows.map((r) => ({ action: r.action, amount: r.amount, balanceAfter: r.balance_after, apiKeyId: r.api_key_id, requestId: r.request_id, createdAt: r.created_at.toISOString() }));
  }
}

export interface CreditLedgerView {
  action: string;
  amount: number;
  balanceAfter: number;
  apiKeyId: string | null;
  requestId: string | null;
  createdAt: string;
}
