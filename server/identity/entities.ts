import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { createdAtColumn } from '../platform/entity-columns';

export const PLANS = ['free', 'starter', 'pro', 'business'] as const;
export type Plan = (typeof PLANS)[number];
export const RECORD_SCOPES = ['own', 'account'] as const;
export type RecordScope = (typeof RECORD_SCOPES)[number];

@Entity('accounts')
export class Account {
  @PrimaryColumn('uuid') id: string;
  @Column('text') email: string;
  @Column('text', { name: 'password_hash' }) passwordHash: string;
  @Column('text') name: string;
  @Column('text') plan: Plan;
  @Column('boolean', { name: 'is_developer' }) isDeveloper: boolean;
  @Column('integer') credits: number;
  @createdAtColumn() createdAt: Date;
}

@Entity('sessions')
export class Session {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'account_id' }) accountId: string;
  @Column('bytea', { name: 'token_digest' }) tokenDigest: Buffer;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt: Date;
  @Column('timestamptz', { name: 'ended_at', nullable: true }) endedAt: Date | null;
  @createdAtColumn() createdAt: Date;
}

@Entity('api_keys')
export class ApiKey {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'account_id' }) accountId: string;
  @Column('text') name: string;
  @Column('text', { name: 'record_scope' }) recordScope: RecordScope;
  @Column('bytea', { name: 'key_digest' }) keyDigest: Buffer;
  @Column('text', { name: 'key_sealed' }) keySealed: string;
  @Column('text', { name: 'key_last4' }) keyLast4: string;
  @Column('timestamptz', { name: 'last_used_at', nullable: true }) lastUsedAt: Date | null;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt: Date | null;
  @createdAtColumn() createdAt: Date;
}

@Entity('credit_ledger')
export class CreditLedgerEntry {
  @PrimaryGeneratedColumn('identity', { type: 'bigint' }) id: string;
  @Column('uuid', { name: 'account_id' }) accountId: string;
  @Column('uuid', { name: 'api_key_id', nullable: true }) apiKeyId: string | null;
  @Column('text') action: string;
  /** Signed: negative for a charge, positive for a refund or top-up. */
  @Column('integer') amount: number;
  @Column('integer', { name: 'balance_after' }) balanceAfter: number;
  @Column('text', { name: 'request_id', nullable: true }) requestId: string | null;
  /** Why the operator granted credits; null for charges and refunds. */
  @Column('text', { nullable: true }) reason: string | null;
  @createdAtColumn() createdAt: Date;
}
