import type { Gate } from '../platform/http/gate';
import type { ApiKeyService } from './api-keys';

/**
 * What a record's owner may do in a store now, for work done on their behalf later (event deliveries): the store
 * permissions the gate would give them on a request, whether the key they used has been revoked since, and with an
 * `own`-scope key, that key (it reaches only the records it made).
 */
export function ownerAccess(gate: Gate, keys: ApiKeyService) {
  return async (storeId: string, accountId: string, keyId: string | null) => {
    const store = await gate.storeAccess(storeId, { accountId });
    if (!store) return null;
    const key = keyId ? await keys.get(accountId, keyId).catch(() => null) : null;
    return { permissions: store.permissions, keyRevoked: keyId !== null && (!key || key.revokedAt !== null), ownRecordsOf: key?.recordScope === 'own' ? key.id : null };
  };
}
