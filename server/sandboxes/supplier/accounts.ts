import { randomBytes } from 'node:crypto';
import { ApiError } from './errors';
import type { Environment } from './types';

export const DEFAULT_BALANCE_MINOR = 100_000;

/** Always present so a sandbox started without the control API is still usable by hand. */
export const DEMO_ACCOUNT = {
  id: 'acct_demo',
  email: 'demo@sandbox-supplier.test',
  liveKey: 'sbx_live_demo',
  testKey: 'sbx_test_demo',
} as const;

/** The second warehouse's own built-in account (warehouse.ts): another supplier identity, never the same account. */
export const EU_DEMO_ACCOUNT = {
  id: 'acct_demo_eu',
  email: 'demo@eu.sandbox-supplier.test',
  liveKey: 'sbx_live_demo_eu',
  testKey: 'sbx_test_demo_eu',
} as const;

type FixedAccount = { id: string; email: string; liveKey: string; testKey: string };

/** One environment of an account: its balance and where its notifications go. */
export interface EnvState {
  environment: Environment;
  balanceMinor: number;
  webhookUrl: string | null;
  signingSecret: string | null;
}

export interface Account {
  id: string;
  email: string;
  liveKey: string;
  testKey: string;
  /** The currency its books, prices and balances are kept in (./money.ts); USD unless set when it was made. */
  currency: string;
  envs: Record<Environment, EnvState>;
}

/** Who makes a /v1 call: an account, in the environment its key (or sign-in) acts in. */
export interface Caller {
  account: Account;
  env: EnvState;
}

export function token(prefix: string, bytes: number): string {
  return `${prefix}${randomBytes(bytes).toString('hex')}`;
}

function newEnv(environment: Environment, balanceMinor: number): EnvState {
  return { environment, balanceMinor, webhookUrl: null, signingSecret: null };
}

/** The supplier's merchant accounts and their API keys; they survive a control reset. */
export class Accounts {
  private readonly byId = new Map<string, Account>();
  private readonly keys = new Map<string, { accountId: string; environment: Environment }>();

  constructor(builtIn: FixedAccount = DEMO_ACCOUNT) {
    this.create(DEFAULT_BALANCE_MINOR, DEFAULT_BALANCE_MINOR, undefined, builtIn);
  }

  create(balanceMinor: number, testBalanceMinor: number, email?: string, fixed?: FixedAccount, currency = 'USD'): Account {
    if (email !== undefined && this.find(email)) throw new ApiError(409, 'emailInUse', `An account already uses ${email}`);
    const id = fixed?.id ?? token('acct_', 8);
    const account: Account = {
      id,
      email: email ?? fixed?.email ?? `${id}@sandbox-supplier.test`,
      liveKey: fixed?.liveKey ?? token('sbx_live_', 16),
      testKey: fixed?.testKey ?? token('sbx_test_', 16),
      currency,
      envs: { live: newEnv('live', balanceMinor), test: newEnv('test', testBalanceMinor) },
    };
    this.byId.set(id, account);
    this.keys.set(account.liveKey, { accountId: id, environment: 'live' });
    this.keys.set(account.testKey, { accountId: id, environment: 'test' });
    return account;
  }

  get(id: string): Account | undefined {
    return this.byId.get(id);
  }

  all(): IterableIterator<Account> {
    return this.byId.values();
  }

  /** By id, or by e-mail ignoring case. */
  find(idOrEmail: string): Account | undefined {
    const needle = idOrEmail.trim();
    const byId = this.byId.get(needle);
    if (byId) return byId;
    const lower = needle.toLowerCase();
    for (const account of this.byId.values()) if (account.email.toLowerCase() === lower) return account;
    return undefined;
  }

  /** The caller an API key stands for, or null. */
  byKey(key: string): Caller | null {
    const found = this.keys.get(key);
    const account = found && this.byId.get(found.accountId);
    return account ? { account, env: account.envs[found.environment] } : null;
  }

  setBalance(accountId: string, environment: Environment, balanceMinor: number): EnvState {
    const account = this.byId.get(accountId);
    if (!account) throw new ApiError(404, 'accountNotFound', `No account ${accountId}`);
    account.envs[environment].balanceMinor = balanceMinor;
    return account.envs[environment];
  }

  setWebhook(env: EnvState, url: string, rotate: boolean): { url: string; signingSecret: string } {
    if (!env.signingSecret || rotate) env.signingSecret = token('whsec_', 24);
    env.webhookUrl = url;
    return { url, signingSecret: env.signingSecret };
  }
}
