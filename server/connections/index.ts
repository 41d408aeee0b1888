import type { EventRenderer } from '../events';
import type { AnyRoute } from '../platform/http/route';
import type { ApiKeyService } from '../identity/api-keys';
import { SupplierConnections1763856000000 } from '../migrations/1763856000000-SupplierConnections';
import { RegisteredNotificationAddress1764115200000 } from '../migrations/1764115200000-RegisteredNotificationAddress';
import { SupplierAccountKey1764201600180 } from '../migrations/1764201600180-SupplierAccountKey';
import { SupplierCallRates1764288000003 } from '../migrations/1764288000003-SupplierCallRates';
import { RenameRegisteredWebhookUrl1764374400001 } from '../migrations/1764374400001-RenameRegisteredWebhookUrl';
import { SupplierOrderNumbers1764460800250 } from '../migrations/1764460800250-SupplierOrderNumbers';
import { AutomationShippingMethod1764460800251 } from '../migrations/1764460800251-AutomationShippingMethod';
import { SignInAddress1764633600310 } from '../migrations/1764633600310-SignInAddress';
import { SignInOpenedBy1764633600311 } from '../migrations/1764633600311-SignInOpenedBy';
import { SignInBrowserDigest1764633600312 } from '../migrations/1764633600312-SignInBrowserDigest';
import { SignInRefusedCodes1765065600401 } from '../migrations/1765065600401-SignInRefusedCodes';
import { StoreSupplierRouting1765324800420 } from '../migrations/1765324800420-StoreSupplierRouting';
import { domainModule, type Platform } from '../platform/domain';
import type { Boss } from '../platform/jobs';
import type { SupplierRegistry } from '../suppliers/registry';
import { SupplierCallRates } from './call-rate';
import { CircuitBreaker } from './circuit-breaker';
import { CredentialRenewal } from './credential-renewal';
import { connectionEventRenderer } from './events';
import { SupplierGateway } from './gateway';
import { CONNECTION_QUEUES, CREDENTIAL_RENEWAL_QUEUE, nextRenewalSweep, RENEWAL_SWEEP_KEY } from './queues';
import { connectionRoutes } from './routes';
import { StoreRouting } from './routing';
import { ConnectionService, type KeptOfConnection } from './service';
import { SignInService, type MemberAccess } from './sign-in';
import { liveConnections, replaceCredentials } from './sql/connections';

// What the other domains use of the connections domain besides its services: a connection's row as their own
// statements read it, the step that stamps a notification's arrival, and the words of connections.
export { type ConnectionRow, connectionOf } from './sql/rows';
export { notifiedStep } from './sql/connections';
export { CircuitOpenError } from './gateway';
export { readAddressId } from './addresses';
export type { SupplierGateway } from './gateway';
export type { ConnectionService } from './service';
export type { StoreRouting } from './routing';
export { normaliseRouting } from './routing';
export { routingRuleSchema } from './schemas';
export type * from './types';
export { DEFAULT_DELIVERY_WATCH } from './types';

/**
 * Supplier connections, the gateway every supplier call goes through, and the renewal of sign-ins. Its routes show and
 * remove what later domains keep of a connection (a disconnect's impact, the links that go with it): they are built
 * late (`lateRoutes`), from what the catalogue and dispatch provide, once the whole list is built.
 */
export const connectionsModule = domainModule({
  name: 'connections',
  needs: ['identity', 'suppliers', 'events'],
  provides: ['gateway', 'connections'],
  queues: CONNECTION_QUEUES,
  migrations: [
    SupplierConnections1763856000000,
    RegisteredNotificationAddress1764115200000,
    SupplierAccountKey1764201600180,
    SupplierCallRates1764288000003,
    RenameRegisteredWebhookUrl1764374400001,
    SupplierOrderNumbers1764460800250,
    AutomationShippingMethod1764460800251,
    SignInAddress1764633600310,
    SignInOpenedBy1764633600311,
    SignInBrowserDigest1764633600312,
    SignInRefusedCodes1765065600401,
    StoreSupplierRouting1765324800420,
  ],
  // Each live connection's supplier credentials (a disconnected one keeps none), named by store and id (one shard each).
  sealed: [
    {
      name: 'supplierCredentials',
      list: async (db, limit) =>
        (await liveConnections(db)).flatMap((c) => (c.credentialsSealed ? [{ id: `${c.storeId}/${c.id}`, sealed: c.credentialsSealed }] : [])).slice(0, limit),
      replace: (db, named, was, now) => {
        const [storeId, id] = named.split('/');
        return replaceCredentials(db, { storeId, id }, was, now);
      },
    },
  ],
  build(
    p: Platform,
    deps: {
      identity: { gate: MemberAccess; apiKeys: Pick<ApiKeyService, 'get'> };
      suppliers: { registry: SupplierRegistry };
      events: { renderers: { register(kind: string, r: EventRenderer): void } };
    },
  ) {
    const { config, db } = p;
    const registry = deps.suppliers.registry;
    const breaker = new CircuitBreaker(db, { failureThreshold: config.circuitFailureThreshold, cooldownSeconds: config.circuitCooldownSeconds });
    const gateway = new SupplierGateway(registry, p.secrets, breaker, config.supplierTimeoutMs, db, new SupplierCallRates(db));
    const connections = new ConnectionService(db, registry, gateway, breaker, () => config.publicBaseUrl);
    const signIn = new SignInService(db, p.secrets, registry, gateway, connections, deps.identity.gate, deps.identity.apiKeys);
    const credentialRenewal = new CredentialRenewal(db, registry, gateway, p.log);
    const routing = new StoreRouting(db);
    deps.events.renderers.register('connection', connectionEventRenderer(connections));
    return {
      breaker,
      gateway,
      connections,
      signIn,
      credentialRenewal,
      routing,
      registry,
      routes: [] as AnyRoute[],
      async work(boss: Boss) {
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
    };
  },
  lateRoutes: {
    needs: ['catalogue', 'dispatch'],
    build: (
      self,
      later: { catalogue: { linksOfConnection: KeptOfConnection['links'] }; dispatch: { openSupplierOrders: KeptOfConnection['openSupplierOrders'] } },
    ) =>
      connectionRoutes(self.connections, self.signIn, self.registry, self.routing, {
        links: later.catalogue.linksOfConnection,
        openSupplierOrders: later.dispatch.openSupplierOrders,
      }),
  },
});
