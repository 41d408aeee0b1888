import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import { hashPassword, randomBase62, Secrets, verifyPassword } from '../platform/crypto';
import { errors } from '../platform/errors';
import type { Account, Plan } from './types';
import { CreditService, SIGN_UP_CREDITS } from './credits';
import { planIncludesDropshipping } from './permissions';
import * as sql from './sql/identity';

export interface AccountView {
  id: string;
  email: string;
  name: string;
  plan: Plan;
  includesDropshipping: boolean;
  isDeveloper: boolean;
  credits: number;
  createdAt: string;
}

export function accountView(a: Account): AccountView {
  return {
    id: a.id,
    email: a.email,
    name: a.name,
    plan: a.plan,
    includesDropshipping: planIncludesDropshipping(a.plan),
    isDeveloper: a.isDeveloper,
    credits: a.credits,
    createdAt: a.createdAt.toISOString(),
  };
}

/** A session token's prefix; the ledger's action for credits the operator granted. */
const [SESSION_PREFIX, OPERATOR_GRANT] = ['sst_', 'operator.grant'];
// A fixed hash compared against when the e-mail is unknown, so both failures take the same time.
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export class AccountService {
  constructor(
    private readonly db: DataSource,
    private readonly secrets: Secrets,
    private readonly credits: CreditService,
    private readonly sessionTtlHours: number,
  ) {}

  async signUp(input: { email: string; password: string; name: string }): Promise<{ account: Account; sessionToken: string }> {
    const existing = await this.findByEmail(input.email);
    if (existing) throw errors.conflict('emailTaken', 'An account with this e-mail address already exists.');
    const account = { id: crypto.randomUUID(), email: input.email.trim(), passwordHash: await hashPassword(input.password), name: input.name };
    try {
      await sql.insertAccount(this.db, account);
    } catch (e) {
      if ((e as { code?: string }).code === '23505') throw errors.conflict('emailTaken', 'An account with this e-mail address already exists.');
      throw e;
    }
    await this.credits.credit(account.id, null, 'signUp.grant', SIGN_UP_CREDITS, null);
    return { account: await this.get(account.id), sessionToken: await this.startSession(account.id) };
  }

  async signIn(email: string, password: string): Promise<{ account: Account; sessionToken: string }> {
    const account = await this.findByEmail(email);
    const ok = await verifyPassword(password, account?.passwordHash ?? DUMMY_HASH).catch(() => false);
    if (!account || !ok) throw errors.invalidSignIn();
    return { account, sessionToken: await this.startSession(account.id) };
  }

  async signOut(sessionId: string): Promise<void> {
    await sql.endSession(this.db, sessionId);
  }

  /** The digest a session token is found by, or null when the text cannot be one of our tokens. */
  sessionDigestOf(token: string): Buffer | null {
    return token.startsWith(SESSION_PREFIX) ? this.secrets.digest(token) : null;
  }

  async get(id: string): Promise<Account> {
    const account = await sql.accountById(this.db, id);
    if (!account) throw errors.notFound('The account');
    return account;
  }

  findByEmail(email: string): Promise<Account | null> {
    return sql.accountByEmail(this.db, email.trim());
  }

  /** Free and immediate; plan and credits stay as they are. */
  async becomeDeveloper(id: string): Promise<Account> {
    await sql.setDeveloper(this.db, id);
    return this.get(id);
  }

  /** An operator action (server/operator): takes effect at once. */
  async changePlan(id: string, plan: Plan): Promise<Account> {
    await sql.setPlan(this.db, id, plan);
    return this.get(id);
  }

  /** An operator action (server/operator): credits granted, the reason kept in the ledger. */
  async grantCredits(id: string, amount: number, reason: string, requestId: string | null): Promise<Account> {
    await this.credits.credit(id, null, OPERATOR_GRANT, amount, requestId, reason);
    return this.get(id);
  }

  /** The account's newest credit movements (read-only). */
  ledger(id: string, limit: number) {
    return this.credits.ledger(id, limit);
  }

  private async startSession(accountId: string): Promise<string> {
    const token = SESSION_PREFIX + randomBase62(32);
    await sql.insertSession(this.db, {
      id: crypto.randomUUID(),
      accountId,
      tokenDigest: this.secrets.digest(token),
      expiresAt: new Date(Date.now() + this.sessionTtlHours * 3600_000),
    });
    return token;
  }

  async purgeExpiredSessions(): Promise<number> {
    return sql.purgeExpiredSessions(this.db);
  }
}
