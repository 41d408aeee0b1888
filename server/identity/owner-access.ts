import type { Gate } from '../platform/http/gate';
import type { ApiKeyService } from './api-keys';

/**
 * What a record's owner may do in a store now, for work done on their behalf later (event deliveries, import jobs,
 * automatic sends): the store permissions the gate would give them on a request, whether the key they used has been
 * revoked since, with an `own`-scope key that key (it reaches only the records it made), and whether the store
 * owner's plan includes dropshipping now.
 */
export function ownerAccess(gate: Gate, keys: ApiKeyService) {
  return async (storeId: string, accountId: string, keyId: string | null) => {
    const store = await gate.storeAccess(storeId, { accountId });
    if (!store) return null;
    const key = keyId ? await keys.get(accountId, keyId).catch(() => null) : null;
    return {
      permissions: store.permissions,
      keyRevoked: keyId !== null && (!key || key.revokedAt !== null),
      ownRecordsOf: key?.recordScope === 'own' ? key.id : null,
      // The store owner's plan decides plan-gated work, whoever asked for it (spec, Authentication 5).
      dropshipping: gate.planIncludesDropshipping(store.ownerPlan),
    };
  };
}

/** A member's access to a store now, read when work done on their behalf acts (null: none left). */
export type MemberAccess = ReturnType<typeof ownerAccess>;
