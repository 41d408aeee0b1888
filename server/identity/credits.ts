import type { DataSource } from 'typeorm';
import type { Queryable } from '../platform/db';
import { errors } from '../platform/errors';
import { creditsCharged } from '../platform/metrics';
import type { Payer } from '../platform/http/route';
import * as sql from './sql';

export const SIGN_UP_CREDITS = 100;

export class CreditService {
  constructor(private readonly db: DataSource) {}

  /**
   * Takes `amount` credits in one conditional update so concurrent calls can never overdraw. Prices live on the
   * routes (`RouteDef.credits`); this only moves credits and writes the ledger.
   */
  async charge(payer: Payer, action: string, amount: number, requestId: string | null, tx?: Queryable): Promise<void> {
    if (amount <= 0) return;
    const { accountId, apiKeyId } = payer;
    const left = await sql.takeCredits(tx ?? this.db, { accountId, apiKeyId, action, amount, requestId });
    if (left === null) throw errors.insufficientCredits(amount, (await sql.creditBalance(tx ?? this.db, accountId)) ?? 0);
    creditsCharged.inc({ action }, amount);
  }

  /** Gives back `amount` of a charge for `action`, as its own ledger row. */
  async refund(payer: Payer, action: string, amount: number, requestId: string | null): Promise<void> {
    if (amount > 0) await this.credit(payer.accountId, payer.apiKeyId, `${action}.refund`, amount, requestId);
  }

  async credit(accountId: string, apiKeyId: string | null, action: string, amount: number, requestId: string | null, reason: string | null = null): Promise<void> {
    await sql.addCredits(this.db, { accountId, apiKeyId, action, amount, requestId, reason });
  }

  /** The newest ledger entries of the account: charges, refunds and top-ups, each with the balance after it. */
  async ledger(accountId: string, limit: number): Promise<CreditLedgerView[]> {
    const rows = await sql.ledgerOf(this.db, accountId, limit);
    return rows.map((r) => ({ action: r.action, amount: r.amount, balanceAfter: r.balance_after, apiKeyId: r.api_key_id, requestId: r.request_id, reason: r.reason, createdAt: r.created_at.toISOString() }));
  }
}

interface CreditLedgerView {
  action: string;
  amount: number;
  balanceAfter: number;
  apiKeyId: string | null;
  requestId: string | null;
  reason: string | null;
  createdAt: string;
}
