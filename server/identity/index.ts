import { domain, type Platform } from '../platform/domain';
import type { SealedValues } from '../platform/sealed';
import { AccountService } from './accounts';
import { ApiKeyService } from './api-keys';
import { CreditService } from './credits';
import { createGate } from './gate';
import { ownerAccess } from './owner-access';
import { planIncludesDropshipping } from './permissions';
import { storeOwnerPlan } from './sql';
import { identityRoutes } from './routes';
import { replaceSealedKey, sealedKeys } from './sql';

/** API keys are kept sealed so their owner can copy them again. */
export const IDENTITY_SEALED: SealedValues[] = [{ name: 'apiKeys', list: sealedKeys, replace: replaceSealedKey }];

/** Accounts, sessions, API keys, credits and the gate every request passes. */
export function identityDomain(p: Platform) {
  const credits = new CreditService(p.db);
  const accounts = new AccountService(p.db, p.secrets, credits, p.config.sessionTtlHours);
  const apiKeys = new ApiKeyService(p.db, p.secrets, p.config.keyLastUsedIntervalSeconds);
  const gate = createGate(p.db, accounts, apiKeys, credits);
  return domain({
    credits,
    accounts,
    apiKeys,
    gate,
    ownerAccess: ownerAccess(gate, apiKeys),
    /** Whether the store owner's plan includes dropshipping now: automatic sends check it when they would act. */
    storeDropshipping: async (storeId: string) => planIncludesDropshipping((await storeOwnerPlan(p.db, storeId)) ?? ''),
    routes: identityRoutes(accounts, apiKeys, () => p.config.publicBaseUrl),
    housekeeping: async () => ({ sessions: await accounts.purgeExpiredSessions() }),
  });
}
