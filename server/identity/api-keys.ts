import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import { randomBase62, Secrets } from '../platform/crypto';
import { errors } from '../platform/errors';
import type { ApiKey, RecordScope } from './types';
import * as sql from './sql/identity';

const API_KEY_PREFIX = 'ssk_';

interface ApiKeyView {
  id: string;
  name: string;
  maskedKey: string;
  recordScope: RecordScope;
  lastUsedAt: string | null;
  revoked: boolean;
  revokedAt: string | null;
  createdAt: string;
}

export function maskKey(last4: string): string {
  return `${API_KEY_PREFIX}${'•'.repeat(8)}${last4}`;
}

export function apiKeyView(k: Omit<ApiKey, 'keyDigest' | 'keySealed'>): ApiKeyView {
  return {
    id: k.id,
    name: k.name,
    maskedKey: maskKey(k.keyLast4),
    recordScope: k.recordScope,
    lastUsedAt: k.lastUsedAt ? k.lastUsedAt.toISOString() : null,
    revoked: !!k.revokedAt,
    revokedAt: k.revokedAt ? k.revokedAt.toISOString() : null,
    createdAt: k.createdAt.toISOString(),
  };
}

export class ApiKeyService {
  constructor(
    private readonly db: DataSource,
    private readonly secrets: Secrets,
    readonly lastUsedIntervalSeconds: number,
  ) {}

  private readonly touching = new Map<string, Date>();

  async create(accountId: string, input: { name: string; recordScope?: RecordScope }): Promise<{ key: ApiKey; fullKey: string }> {
    const fullKey = API_KEY_PREFIX + randomBase62(32);
    const key = await sql.insertApiKey(this.db, {
      id: crypto.randomUUID(),
      accountId,
      name: input.name,
      recordScope: input.recordScope ?? 'own',
      keyDigest: this.secrets.digest(fullKey),
      keySealed: this.secrets.encrypt(fullKey),
      keyLast4: fullKey.slice(-4),
    });
    return { key, fullKey };
  }

  list(accountId: string): Promise<ApiKey[]> {
    return sql.keysOfAccount(this.db, accountId);
  }

  async get(accountId: string, id: string): Promise<ApiKey> {
    const key = await sql.keyOfAccount(this.db, accountId, id);
    if (!key) throw errors.notFound('The API key');
    return key;
  }

  async reveal(accountId: string, id: string): Promise<string> {
    const key = await this.get(accountId, id);
    if (key.revokedAt) throw errors.invalidState('A revoked key cannot be copied.');
    return this.secrets.decrypt(key.keySealed);
  }

  async update(accountId: string, id: string, changes: { name?: string; recordScope?: RecordScope }): Promise<ApiKey> {
    const key = await this.get(accountId, id);
    if (key.revokedAt) throw errors.invalidState('A revoked key cannot be changed.');
    await sql.updateApiKey(this.db, accountId, id, changes);
    return this.get(accountId, id);
  }

  /** Immediate and permanent: the next request with this key is refused. */
  async revoke(accountId: string, id: string): Promise<ApiKey> {
    await this.get(accountId, id);
    await sql.revokeKey(this.db, id, accountId);
    return this.get(accountId, id);
  }

  /** The digest a key is found by, or null when the text cannot be one of our keys. */
  digestOf(fullKey: string): Buffer | null {
    if (!fullKey.startsWith(API_KEY_PREFIX) || fullKey.length > 200) return null;
    return this.secrets.digest(fullKey);
  }

  /**
   * Writes `last_used_at` off the answer path: not awaited, at most one write in flight per key in this
   * process, and the condition repeated so concurrent processes write once per interval. Answers the
   * stamp this use gets, so the answer can show it before it is written.
   */
  touch(id: string, at: Date): Date {
    const inFlight = this.touching.get(id);
    if (inFlight) return inFlight;
    this.touching.set(id, at);
    sql
      .stampKeyUse(this.db, id, at, this.lastUsedIntervalSeconds)
      .catch(() => undefined) // a missed stamp is written by a later request
      .finally(() => this.touching.delete(id));
    return at;
  }
}
