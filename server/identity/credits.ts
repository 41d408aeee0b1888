import type { DataSource, EntityManager } from 'typeorm';
import { errors } from '../platform/errors';
import { creditsCharged } from '../platform/metrics';
import * as sql from './sql';

/**
 * One price per action, in credits, the same for a signed-in session and an API key.
 * Reads, previews and key management are free.
 */
export const CREDIT_PRICES: Record<string, number> = {
  'storeProduct.create': 1,
  'supplierConnection.connect': 5,
  'supplierProduct.import': 2,
  'productLink.create': 1,
  'supplierOrder.send': 3,
};

export const SIGN_UP_CREDITS = 100;

export class CreditService {
  constructor(private readonly db: DataSource) {}

  price(action: string): number {
    const price = CREDIT_PRICES[action];
    if (price === undefined) throw new Error(`No credit price for action ${action}`);
    return price;
  }

  /**
   * Takes the credits in one conditional update so concurrent calls can never overdraw;
   * answers a refund to run if the action then fails.
   */
  async charge(accountId: string, apiKeyId: string | null, action: string, quantity: number, requestId: string | null, tx?: EntityManager): Promise<() => Promise<void>> {
    const amount = this.price(action) * quantity;
    if (amount === 0) return async () => undefined;
    const left = await sql.takeCredits(tx ?? this.db, { accountId, apiKeyId, action, amount, requestId });
    if (left === null) throw errors.insufficientCredits(amount, (await sql.creditBalance(tx ?? this.db, accountId)) ?? 0);
    creditsCharged.inc({ action }, amount);
    return () => this.credit(accountId, apiKeyId, `${action}.refund`, amount, requestId);
  }

  async credit(accountId: string, apiKeyId: string | null, action: string, amount: number, requestId: string | null): Promise<void> {
    await sql.addCredits(this.db, { accountId, apiKeyId, action, amount, requestId });
  }

  /** The newest ledger entries of the account: charges, refunds and top-ups, each with the balance after it. */
  async ledger(accountId: string, limit: number): Promise<CreditLedgerView[]> {
    const rows = await sql.ledgerOf(this.db, accountId, limit);
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
