// The identity domain's types; ./sql/identity.ts maps its rows into them.

export const PLANS = ['free', 'starter', 'pro', 'business'] as const;
export type Plan = (typeof PLANS)[number];
export const RECORD_SCOPES = ['own', 'account'] as const;
export type RecordScope = (typeof RECORD_SCOPES)[number];

export interface Account {
  id: string;
  email: string;
  passwordHash: string;
  name: string;
  plan: Plan;
  isDeveloper: boolean;
  credits: number;
  createdAt: Date;
}

export interface ApiKey {
  id: string;
  accountId: string;
  name: string;
  recordScope: RecordScope;
  keyDigest: Buffer;
  keySealed: string;
  keyLast4: string;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}
