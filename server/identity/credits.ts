import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Queryable } from '../platform/db';
import { errors } from '../platform/errors';
import { creditsCharged } from '../platform/metrics';
import type { CreditHold } from '../platform/http/gate';
import type { Payer } from '../platform/http/route';
import * as sql from './sql/credits';
import * as holds from './sql/credit-holds';

export const SIGN_UP_CREDITS = 100;

/** Lapsed holds refunded per statement batch by the sweep. */
const SWEEP_BATCH = 100;

export class CreditService {
  constructor(
    private readonly db: DataSource,
    /** How long a hold stands without its request renewing it; the request renews it every third of that. */
    private readonly holdLeaseSeconds = 60,
  ) {}

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

  /**
   * Takes price × units before a request's work and holds them until the request ends: its work marks what it spent in
   * the transactions that do it, and its end (or, if it never ends, the sweep) refunds the rest. Throws 402 when too few.
   */
  async hold(payer: Payer, action: string, price: number, units: number, requestId: string | null): Promise<CreditHold> {
    const key = { accountId: payer.accountId, holdId: crypto.randomUUID() };
    const left = await holds.takeHeld(this.db, { ...key, apiKeyId: payer.apiKeyId, action, price, units, requestId, leaseSeconds: this.holdLeaseSeconds });
    if (left === null) throw errors.insufficientCredits(price * units, (await sql.creditBalance(this.db, payer.accountId)) ?? 0);
    creditsCharged.inc({ action }, price * units);
    return {
      renewEveryMs: (this.holdLeaseSeconds * 1000) / 3,
      spend: async (tx, n) => {
        // Gone: the request outlived its lease and the sweep refunded it; its work must not be done unpaid.
        if (!(await holds.spendHeld(tx, key, n)))
          throw errors.unavailable('This request took too long and its credits were given back; nothing more was done. Send it again.');
      },
      renew: () => holds.renewHeld(this.db, key, this.holdLeaseSeconds),
      settle: async () => void (await holds.releaseHeld(this.db, key, false)),
    };
  }

  /** Refunds the unspent units of every hold whose request stopped renewing it (its process died). Answers how many. */
  async sweepLapsedHolds(): Promise<number> {
    let released = 0;
    for (;;) {
      const lapsed = await holds.lapsedHolds(this.db, SWEEP_BATCH);
      for (const h of lapsed) if ((await holds.releaseHeld(this.db, { accountId: h.account_id, holdId: h.id }, true)) !== null) released++;
      if (lapsed.length < SWEEP_BATCH) return released;
    }
  }

  async credit(
    accountId: string,
    apiKeyId: string | null,
    action: string,
    amount: number,
    requestId: string | null,
    reason: string | null = null,
  ): Promise<void> {
    await sql.addCredits(this.db, { accountId, apiKeyId, action, amount, requestId, reason });
  }

  /** The newest ledger entries of the account: charges, refunds and top-ups, each with the balance after it. */
  async ledger(accountId: string, limit: number): Promise<CreditLedgerView[]> {
    const rows = await sql.ledgerOf(this.db, accountId, limit);
    return rows.map((r) => ({
      action: r.action,
      amount: r.amount,
      balanceAfter: r.balance_after,
      apiKeyId: r.api_key_id,
      requestId: r.request_id,
      reason: r.reason,
      createdAt: r.created_at.toISOString(),
    }));
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
