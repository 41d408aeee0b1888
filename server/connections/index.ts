import { domain, type Platform } from '../platform/domain';
import type { SealedValues } from '../platform/sealed';
import type { SupplierRegistry } from '../suppliers/registry';
import { SupplierCallRates } from './call-rate';
import { CircuitBreaker } from './circuit-breaker';
import { CredentialRenewal } from './credential-renewal';
import { connectionEventRenderer } from './events';
import { SupplierGateway } from './gateway';
import { CREDENTIAL_RENEWAL_QUEUE, nextRenewalSweep, RENEWAL_SWEEP_KEY } from './queues';
import { connectionRoutes } from './routes';
import { ConnectionService } from './service';
import { SignInService, type MemberAccess } from './sign-in';
import { liveConnections, replaceCredentials } from './sql';

/** Each live connection's supplier credentials (a disconnected one keeps none). */
export const CONNECTION_SEALED: SealedValues[] = [
  {
    name: 'supplierCredentials',
    list: async (db, limit) => (await liveConnections(db)).flatMap((c) => (c.credentialsSealed ? [{ id: c.id, sealed: c.credentialsSealed }] : [])).slice(0, limit),
    replace: replaceCredentials,
  },
];

/** Supplier connections, the gateway every supplier call goes through, and the renewal of sign-ins. */
export function connectionsDomain(p: Platform, deps: { registry: SupplierRegistry; members: MemberAccess }) {
  const { config, db } = p;
  const breaker = new CircuitBreaker(db, { failureThreshold: config.circuitFailureThreshold, cooldownSeconds: config.circuitCooldownSeconds });
  const gateway = new SupplierGateway(deps.registry, p.secrets, breaker, config.supplierTimeoutMs, db, new SupplierCallRates(db));
  const connections = new ConnectionService(db, deps.registry, gateway, breaker, () => config.publicBaseUrl);
  const signIn = new SignInService(db, p.secrets, deps.registry, gateway, connections, deps.members);
  const credentialRenewal = new CredentialRenewal(db, deps.registry, gateway, p.log);
  return domain({
    breaker,
    gateway,
    connections,
    signIn,
    credentialRenewal,
    eventRenderers: { connection: connectionEventRenderer(connections) },
    routes: connectionRoutes(connections, signIn, deps.registry),
    async work(boss) {
      // Sign-ins that expire are renewed before they end: a chain of sweeps, which the minutely schedule restarts if it breaks.
      await boss.work(CREDENTIAL_RENEWAL_QUEUE, async () => {
        try {
          await credentialRenewal.sweep();
        } finally {
          await nextRenewalSweep(boss, config.credentialRenewalSeconds);
        }
      });
      await boss.schedule(CREDENTIAL_RENEWAL_QUEUE, '* * * * *', {}, { singletonKey: RENEWAL_SWEEP_KEY });
      await nextRenewalSweep(boss, config.credentialRenewalSeconds);
    },
  });
}
