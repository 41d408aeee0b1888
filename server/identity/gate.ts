import type { DataSource } from 'typeorm';
import { errors } from '../platform/errors';
import type { Gate } from '../platform/http/gate';
import type { Caller, StoreAccess } from '../platform/http/route';
import type { AccountService } from './accounts';
import type { ApiKeyService } from './api-keys';
import type { CreditService } from './credits';
import { DROPSHIPPING_PLAN, PERMISSIONS, planIncludesDropshipping } from './permissions';

const ALL_PERMISSIONS: ReadonlySet<string> = new Set(PERMISSIONS);

export function createGate(db: DataSource, accounts: AccountService, keys: ApiKeyService, credits: CreditService): Gate {
  return {
    async authenticate({ apiKey, bearer }) {
      if (apiKey !== undefined) {
        const key = await keys.authenticate(apiKey);
        if (!key) throw errors.unauthenticated();
        return { accountId: key.accountId, apiKey: { id: key.id, recordScope: key.recordScope } } satisfies Caller;
      }
      if (bearer !== undefined) {
        const session = await accounts.sessionAccount(bearer);
        if (!session) throw errors.unauthenticated();
        return { accountId: session.accountId, sessionId: session.sessionId };
      }
      return null;
    },

    async storeAccess(storeId: string, caller: Caller): Promise<StoreAccess | null> {
      const rows: Array<{ owner_account_id: string; plan: string; permissions: string[] | null }> = await db.query(
        `SELECT s.owner_account_id, a.plan, st.permissions
           FROM stores s
           JOIN accounts a ON a.id = s.owner_account_id
           LEFT JOIN store_staff st ON st.store_id = s.id AND st.account_id = $2
          WHERE s.id = $1`,
        [storeId, caller.accountId],
      );
      const row = rows[0];
      if (!row) return null;
      const isOwner = row.owner_account_id === caller.accountId;
      if (!isOwner && !row.permissions) return null;
      return {
        storeId,
        ownerAccountId: row.owner_account_id,
        ownerPlan: row.plan,
        isOwner,
        permissions: isOwner ? ALL_PERMISSIONS : new Set(row.permissions),
      };
    },

    planIncludesDropshipping,
    requiredPlan: DROPSHIPPING_PLAN,

    charge(caller, action, quantity, requestId, tx) {
      return credits.charge(caller.accountId, caller.apiKey?.id ?? null, action, quantity, requestId, tx);
    },
  };
}
