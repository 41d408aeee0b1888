import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import { randomBase62, Secrets } from '../platform/crypto';
import { errors } from '../platform/errors';
import { ApiKey, RecordScope } from './entities';

export const API_KEY_PREFIX = 'ssk_';

export interface ApiKeyView {
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

export function apiKeyView(k: ApiKey): ApiKeyView {
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

export interface AuthenticatedKey {
  id: string;
  accountId: string;
  recordScope: RecordScope;
}

export class ApiKeyService {
  constructor(
    private readonly db: DataSource,
    private readonly secrets: Secrets,
    private readonly lastUsedIntervalSeconds: number,
  ) {}

  async create(accountId: string, input: { name: string; recordScope?: RecordScope }): Promise<{ key: ApiKey; fullKey: string }> {
    const fullKey = API_KEY_PREFIX + randomBase62(32);
    const key = this.db.getRepository(ApiKey).create({
      id: crypto.randomUUID(),
      accountId,
      name: input.name,
      recordScope: input.recordScope ?? 'own',
      keyDigest: this.secrets.digest(fullKey),
      keySealed: this.secrets.encrypt(fullKey),
      keyLast4: fullKey.slice(-4),
      lastUsedAt: null,
      revokedAt: null,
    });
    await this.db.getRepository(ApiKey).insert(key);
    return { key: await this.get(accountId, key.id), fullKey };
  }

  list(accountId: string): Promise<ApiKey[]> {
    return this.db.getRepository(ApiKey).find({ where: { accountId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  async get(accountId: string, id: string): Promise<ApiKey> {
    const key = await this.db.getRepository(ApiKey).findOneBy({ id, accountId });
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
    await this.db.getRepository(ApiKey).update({ id, accountId }, changes);
    return this.get(accountId, id);
  }

  /** Immediate and permanent: the next request with this key is refused. */
  async revoke(accountId: string, id: string): Promise<ApiKey> {
    await this.get(accountId, id);
    await this.db.query('UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 AND account_id = $2', [id, accountId]);
    return this.get(accountId, id);
  }

  /** One indexed lookup per request; `last_used_at` is written at most once per interval. */
  async authenticate(fullKey: string): Promise<AuthenticatedKey | null> {
    if (!fullKey.startsWith(API_KEY_PREFIX) || fullKey.length > 200) return null;
    const rows: Array<{ id: string; account_id: string; record_scope: RecordScope; stale: boolean }> = await this.db.query(
      `SELECT id, account_id, record_scope,
              (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => $2)) AS stale
         FROM api_keys WHERE key_digest = $1 AND revoked_at IS NULL`,
      [this.secrets.digest(fullKey), this.lastUsedIntervalSeconds],
    );
    const row = rows[0];
    if (!row) return null;
    if (row.stale) {
      // The condition is repeated so concurrent requests write once.
      await this.db.query(
        `UPDATE api_keys SET last_used_at = now()
          WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => $2))`,
        [row.id, this.lastUsedIntervalSeconds],
      );
    }
    return { id: row.id, accountId: row.account_id, recordScope: row.record_scope };
  }
}
