import type { DataSource } from 'typeorm';
import type { Logger } from '../platform/logger';
import { renewsCredentials, type RenewingAdapter } from '../suppliers/adapter';
import { SupplierError } from '../suppliers/errors';
import type { SupplierRegistry } from '../suppliers/registry';
import type { SupplierGateway } from './gateway';
import { SIGN_IN_LAPSED } from './gateway';
import { liveConnectionsOf, type RenewableConnection } from './sql/connections';
import { setHealth } from './sql/health';

/**
 * Sign-ins that expire (AliExpress) are renewed by this sweep before they end, never by the calls that use them, so
 * one process renews each at a time. A renewal the supplier refuses marks the sign-in lapsed (the gateway then refuses
 * the connection's calls: its orders pause with connectionUnhealthy) and says in the connection's health that the
 * merchant must sign in again; a passing failure is tried again at the next sweep.
 */
export class CredentialRenewal {
  constructor(
    private readonly db: DataSource,
    private readonly registry: SupplierRegistry,
    private readonly gateway: SupplierGateway,
    private readonly log: Logger,
  ) {}

  /** One sweep over the live connections of suppliers that renew; answers how many were renewed and how many lapsed. */
  async sweep(now = new Date()): Promise<{ renewed: number; lapsed: number }> {
    const adapters = new Map(
      this.registry
        .adapters()
        .filter(renewsCredentials)
        .map((a) => [a.entry.key, a]),
    );
    const done = { renewed: 0, lapsed: 0 };
    if (!adapters.size) return done;
    for (const conn of await liveConnectionsOf(this.db, [...adapters.keys()])) {
      const adapter = adapters.get(conn.supplierKey)!;
      const credentials = this.gateway.credentialsOf(conn);
      const due = adapter.credentialsRenewAt(credentials);
      if (this.gateway.lapse(credentials) || !due || due > now) continue;
      const outcome = await this.renew(conn, adapter, credentials);
      if (outcome !== 'failed') done[outcome]++;
    }
    if (done.renewed || done.lapsed) this.log.info(done, 'supplier sign-ins renewed');
    return done;
  }

  private async renew(conn: RenewableConnection, adapter: RenewingAdapter, credentials: Record<string, string>): Promise<'renewed' | 'lapsed' | 'failed'> {
    const started = Date.now();
    const health = (ok: boolean, message: string) => ({
      status: ok ? ('healthy' as const) : ('unhealthy' as const),
      checkedAt: new Date().toISOString(),
      latencyMs: Date.now() - started,
      message,
    });
    try {
      const changed = await adapter.renewCredentials(this.gateway.context(conn, credentials));
      const sealed = this.gateway.sealCredentials({ ...credentials, ...changed });
      // Lost to a new sign-in made meanwhile: that one stands.
      await setHealth(this.db, conn, health(true, `${adapter.entry.name} sign-in renewed`), { credentials: { expected: conn.credentialsSealed, sealed } });
      return 'renewed';
    } catch (err) {
      if (!(err instanceof SupplierError)) throw err;
      if (err.kind !== 'credentialsRejected') {
        this.log.warn({ connectionId: conn.id, err: err.message }, 'supplier sign-in not renewed; trying again at the next sweep');
        return 'failed';
      }
      const message = `The ${adapter.entry.name} sign-in of this connection ended and could not be renewed (${err.message}). Sign in to ${adapter.entry.name} again (POST /api/store-suppliers/:storeId/oauth/start) to send orders again.`;
      const sealed = this.gateway.sealCredentials({ ...credentials, [SIGN_IN_LAPSED]: message });
      await setHealth(this.db, conn, health(false, message), { credentials: { expected: conn.credentialsSealed, sealed } });
      this.log.warn({ connectionId: conn.id }, 'supplier sign-in lapsed; the merchant must sign in again');
      return 'lapsed';
    }
  }
}
