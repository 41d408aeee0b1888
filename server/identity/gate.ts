import type { DataSource } from 'typeorm';
import { errors } from '../platform/errors';
import type { Gate } from '../platform/http/gate';
import type { Caller, StoreAccess } from '../platform/http/route';
import type { AccountService } from './accounts';
import type { ApiKeyService } from './api-keys';
import type { CreditService } from './credits';
import type { Account, ApiKey } from './types';
import * as sql from './sql/identity';
import type { AccessRow, KeyRow } from './sql/identity';
import { DROPSHIPPING_PLAN, PERMISSIONS, planIncludesDropshipping } from './permissions';

const ALL_PERMISSIONS: ReadonlySet<string> = new Set(PERMISSIONS);

function accessOf(storeId: string, accountId: string, row: AccessRow): StoreAccess | null {
  if (!row.owner_account_id) return null;
  const isOwner = row.owner_account_id === accountId;
  if (!isOwner && !row.permissions) return null;
  return { storeId, ownerAccountId: row.owner_account_id, ownerPlan: row.plan!, isOwner, permissions: isOwner ? ALL_PERMISSIONS : new Set(row.permissions) };
}

/** The calling key and its account as read by authentication, for GET /api/api-key/current. */
export interface KeyDescription {
  key: Omit<ApiKey, 'keyDigest' | 'keySealed'>;
  account: Pick<Account, 'id' | 'email' | 'name' | 'plan' | 'isDeveloper' | 'credits'>;
}

function describeKey(r: KeyRow, lastUsedAt: Date | null): KeyDescription {
  const key = {
    id: r.id,
    accountId: r.account_id,
    name: r.name,
    recordScope: r.record_scope,
    keyLast4: r.key_last4,
    lastUsedAt,
    revokedAt: null,
    createdAt: r.created_at,
  };
  return {
    key,
    account: { id: r.account_id, email: r.email, name: r.account_name, plan: r.account_plan, isDeveloper: r.is_developer, credits: Number(r.credits) },
  };
}

export function createGate(db: DataSource, accounts: AccountService, keys: ApiKeyService, credits: CreditService): Gate {
  const gate: Gate = {
    /**
     * One statement: the key (by digest, not revoked) or the session, its account, and that account's
     * access to `storeId`. Nothing is cached, so a revocation holds on the next request in every process.
     */
    async authenticateFor({ apiKey, bearer }, storeId) {
      if (apiKey !== undefined) {
        const digest = keys.digestOf(apiKey);
        if (!digest) throw errors.unauthenticated();
        const row = await sql.keyAccess(db, digest, keys.lastUsedIntervalSeconds, storeId);
        if (!row) throw errors.unauthenticated();
        const lastUsedAt = row.stale ? keys.touch(row.id, row.now) : row.last_used_at;
        const caller: Caller = { accountId: row.account_id, apiKey: { id: row.id, recordScope: row.record_scope }, described: describeKey(row, lastUsedAt) };
        return { caller, store: storeId ? accessOf(storeId, row.account_id, row) : undefined };
      }
      if (bearer !== undefined) {
        const digest = accounts.sessionDigestOf(bearer);
        if (!digest) throw errors.unauthenticated();
        const row = await sql.sessionAccess(db, digest, storeId);
        if (!row) throw errors.unauthenticated();
        const caller: Caller = { accountId: row.account_id, sessionId: row.id };
        return { caller, store: storeId ? accessOf(storeId, row.account_id, row) : undefined };
      }
      return null;
    },

    async storeAccess(storeId: string, caller: Caller): Promise<StoreAccess | null> {
      const row = await sql.storeAccess(db, storeId, caller.accountId);
      return row ? accessOf(storeId, caller.accountId, row) : null;
    },

    planIncludesDropshipping,
    requiredPlan: DROPSHIPPING_PLAN,

    charge: (payer, action, amount, requestId, tx) => credits.charge(payer, action, amount, requestId, tx),
    hold: (payer, action, price, units, requestId) => credits.hold(payer, action, price, units, requestId),
  };
  return gate;
}
