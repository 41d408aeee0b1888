import { Foundation1763769600000 } from '../migrations/1763769600000-Foundation';
import { CreditLedgerReason1764460800100 } from '../migrations/1764460800100-CreditLedgerReason';
import { LookupKeys1764633600700 } from '../migrations/1764633600700-LookupKeys';
import { CreditHolds1765065600400 } from '../migrations/1765065600400-CreditHolds';
import { IdempotencyKeys1765584000000 } from '../migrations/1765584000000-IdempotencyKeys';
import { domainModule, type Platform } from '../platform/domain';
import type { Boss } from '../platform/jobs';
import { AccountService } from './accounts';
import { ApiKeyService } from './api-keys';
import { CreditService } from './credits';
import { createGate } from './gate';
import { idempotencyKeys } from './idempotency';
import { ownerAccess } from './owner-access';
import { CREDIT_HOLD_SWEEP_QUEUE, HOLD_SWEEP_KEY, IDENTITY_QUEUES, nextHoldSweep } from './queues';
import { identityRoutes } from './routes';
import { replaceSealedKey, sealedKeys } from './sql/identity';
import { replaceSealedAnswer, sealedAnswers } from './sql/idempotency';

/** Accounts, sessions, API keys, credits and the gate every request passes. */
export const identityModule = domainModule({
  name: 'identity',
  needs: [],
  provides: ['credits', 'accounts', 'apiKeys', 'gate', 'ownerAccess'],
  queues: IDENTITY_QUEUES,
  migrations: [Foundation1763769600000, CreditLedgerReason1764460800100, LookupKeys1764633600700, CreditHolds1765065600400, IdempotencyKeys1765584000000],
  // API keys are kept sealed so their owner can copy them again.
  sealed: [
    { name: 'apiKeys', list: sealedKeys, replace: replaceSealedKey },
    // Kept answers of idempotency keys: a subscription's holds its signing secret.
    { name: 'idempotencyAnswers', list: sealedAnswers, replace: replaceSealedAnswer },
  ],
  build(p: Platform) {
    const leaseSeconds = p.config.creditHoldLeaseSeconds;
    const credits = new CreditService(p.db, leaseSeconds);
    const accounts = new AccountService(p.db, p.secrets, credits, p.config.sessionTtlHours);
    const apiKeys = new ApiKeyService(p.db, p.secrets, p.config.keyLastUsedIntervalSeconds);
    // A keyed request keeps its key with the same lease as a credit hold: both are "this request is still running".
    const keys = idempotencyKeys(p.db, p.secrets, leaseSeconds);
    const gate = { ...createGate(p.db, accounts, apiKeys, credits), idempotency: keys };
    return {
      credits,
      accounts,
      apiKeys,
      gate,
      ownerAccess: ownerAccess(gate, apiKeys),
      routes: identityRoutes(accounts, apiKeys, () => p.config.publicBaseUrl),
      housekeeping: async () => ({ sessions: await accounts.purgeExpiredSessions(), idempotencyKeys: await keys.sweep() }),
      async work(boss: Boss) {
        // Credits held by requests that never ended go back within about two leases: a chain of sweeps, each a lease
        // after the last, which the minutely schedule restarts if it breaks.
        await boss.work(CREDIT_HOLD_SWEEP_QUEUE, async () => {
          try {
            const refunded = await credits.sweepLapsedHolds();
            if (refunded) p.log.warn({ refunded }, 'credits held by requests that never ended refunded');
          } finally {
            await nextHoldSweep(boss, leaseSeconds);
          }
        });
        await boss.schedule(CREDIT_HOLD_SWEEP_QUEUE, '* * * * *', {}, { singletonKey: HOLD_SWEEP_KEY });
        await nextHoldSweep(boss, leaseSeconds);
      },
    };
  },
});
