import type { DataSource } from 'typeorm';
import { errors } from '../platform/errors';
import type { Gate } from '../platform/http/gate';
import type { Caller, StoreAccess } from '../platform/http/route';
import type { AccountService } from './accounts';
import type { ApiKeyService } from './api-keys';
import type { CreditService } from './credits';
import { Account, ApiKey, Plan } from './entities';
import { DROPSHIPPING_PLAN, PERMISSIONS, planIncludesDropshipping } from './permissions';

const ALL_PERMISSIONS: ReadonlySet<string> = new Set(PERMISSIONS);

interface AccessRow {
  owner_account_id: string | null;
  plan: string | null;
  permissions: string[] | null;
}

function accessOf(storeId: string, accountId: string, row: AccessRow): StoreAccess | null {
  if (!row.owner_account_id) return null;
  const isOwner = row.owner_account_id === accountId;
  if (!isOwner && !row.permissions) return null;
  return { storeId, ownerAccountId: row.owner_account_id, ownerPlan: row.plan!, isOwner, permissions: isOwner ? ALL_PERMISSIONS : new Set(row.permissions) };
}

interface KeyRow {
  id: string;
  account_id: string;
  record_scope: 'own' | 'account';
  name: string;
  key_last4: string;
  last_used_at: Date | null;
  created_at: Date;
  now: Date;
  stale: boolean;
  email: string;
  account_name: string;
  account_plan: Plan;
  is_developer: boolean;
  credits: number;
}

/** The calling key and its account as read by authentication, for GET /api/api-key/current. */
export interface KeyDescription {
  key: ApiKey;
  account: Pick<Account, 'id' | 'email' | 'name' | 'plan' | 'isDeveloper' | 'credits'>;
}

function describeKey(r: KeyRow, lastUsedAt: Date | null): KeyDescription {
  const key = Object.assign(new ApiKey(), { id: r.id, accountId: r.account_id, name: r.name, recordScope: r.record_scope, keyLast4: r.key_last4, lastUsedAt, revokedAt: null, createdAt: r.created_at });
  return { key, account: { id: r.account_id, email: r.email, name: r.account_name, plan: r.account_plan, isDeveloper: r.is_developer, credits: Number(r.credits) } };
}

// The store access of the authenticated account on $STORE (null columns when it has none), joined onto the credential row.
const STORE_ACCESS = (credential: string, storeParam: string) => `
  LEFT JOIN stores s ON s.id = ${storeParam}::uuid
  LEFT JOIN accounts o ON o.id = s.owner_account_id
  LEFT JOIN store_staff st ON st.store_id = s.id AND st.account_id = ${credential}.account_id`;

export function createGate(db: DataSource, accounts: AccountService, keys: ApiKeyService, credits: CreditService): Gate {
  const gate: Gate = {
    async authenticate(headers) {
      return (await gate.authenticateFor(headers, null))?.caller ?? null;
    },

    /**
     * One statement: the key (by digest, not revoked) or the session, its account, and that account's
     * access to `storeId`. Nothing is cached, so a revocation holds on the next request in every process.
     */
    async authenticateFor({ apiKey, bearer }, storeId) {
      if (apiKey !== undefined) {
        const digest = keys.digestOf(apiKey);
        if (!digest) throw errors.unauthenticated();
        const rows: Array<AccessRow & KeyRow> = await db.query(
          `SELECT k.id, k.account_id, k.record_scope, k.name, k.key_last4, k.last_used_at, k.created_at, now() AS now,
                  (k.last_used_at IS NULL OR k.last_used_at < now() - make_interval(secs => $2)) AS stale,
                  a.email, a.name AS account_name, a.plan AS account_plan, a.is_developer, a.credits,
                  s.owner_account_id, o.plan, st.permissions
             FROM api_keys k JOIN accounts a ON a.id = k.account_id ${STORE_ACCESS('k', '$3')}
            WHERE k.key_digest = $1 AND k.revoked_at IS NULL`,
          [digest, keys.lastUsedIntervalSeconds, storeId],
        );
        const row = rows[0];
        if (!row) throw errors.unauthenticated();
        const lastUsedAt = row.stale ? keys.touch(row.id, row.now) : row.last_used_at;
        const caller: Caller = { accountId: row.account_id, apiKey: { id: row.id, recordScope: row.record_scope }, described: describeKey(row, lastUsedAt) };
        return { caller, store: storeId ? accessOf(storeId, row.account_id, row) : undefined };
      }
      if (bearer !== undefined) {
        const digest = accounts.sessionDigestOf(bearer);
        if (!digest) throw errors.unauthenticated();
        const rows: Array<AccessRow & { id: string; account_id: string }> = await db.query(
          `SELECT se.id, se.account_id, s.owner_account_id, o.plan, st.permissions
             FROM sessions se ${STORE_ACCESS('se', '$2')}
            WHERE se.token_digest = $1 AND se.ended_at IS NULL AND se.expires_at > now()`,
          [digest, storeId],
        );
        const row = rows[0];
        if (!row) throw errors.unauthenticated();
        const caller: Caller = { accountId: row.account_id, sessionId: row.id };
        return { caller, store: storeId ? accessOf(storeId, row.account_id, row) : undefined };
      }
      return null;
    },

    async storeAccess(storeId: string, caller: Caller): Promise<StoreAccess | null> {
      const rows: AccessRow[] = await db.query(
        `SELECT s.owner_account_id, o.plan, st.permissions
           FROM stores s
           JOIN accounts o ON o.id = s.owner_account_id
           LEFT JOIN store_staff st ON st.store_id = s.id AND st.account_id = $2
          WHERE s.id = $1`,
        [storeId, caller.accountId],
      );
      return rows[0] ? accessOf(storeId, caller.accountId, rows[0]) : null;
    },

    planIncludesDropshipping,
    requiredPlan: DROPSHIPPING_PLAN,

    charge: (payer, action, amount, requestId, tx) => credits.charge(payer, action, amount, requestId, tx),
    refund: (payer, action, amount, requestId) => credits.refund(payer, action, amount, requestId),
  };
  return gate;
}
