import type { Secrets } from '../platform/crypto';
import type { SupplierAdapter, SupplierCallContext } from '../suppliers/adapter';
import { SupplierError } from '../suppliers/errors';
import type { SupplierRegistry } from '../suppliers/registry';
import type { CircuitBreaker } from './circuit-breaker';
import type { SupplierConnection } from './entities';

export class CircuitOpenError extends SupplierError {
  constructor(readonly until: Date | null) {
    super('unavailable', 'The connection is paused after repeated supplier errors.');
  }
}

/** The one way to call a supplier for a connection: decrypted credentials, a time-out, and the circuit breaker. */
export class SupplierGateway {
  constructor(
    private readonly registry: SupplierRegistry,
    private readonly secrets: Secrets,
    private readonly breaker: CircuitBreaker,
    private readonly timeoutMs: number,
  ) {}

  adapterFor(supplierKey: string): SupplierAdapter {
    const adapter = this.registry.find(supplierKey);
    if (!adapter) throw new SupplierError('notSupported', `Unknown supplier ${supplierKey}.`);
    return adapter;
  }

  credentialsOf(conn: SupplierConnection): Record<string, string> {
    return conn.credentialsSealed ? (JSON.parse(this.secrets.decrypt(conn.credentialsSealed)) as Record<string, string>) : {};
  }

  sealCredentials(credentials: Record<string, string>): string {
    return this.secrets.encrypt(JSON.stringify(credentials));
  }

  context(conn: Pick<SupplierConnection, 'id' | 'mode' | 'settings'>, credentials: Record<string, string>): SupplierCallContext {
    return { connectionId: conn.id, mode: conn.mode, credentials, settings: conn.settings, timeoutMs: this.timeoutMs };
  }

  async call<T>(conn: SupplierConnection, fn: (adapter: SupplierAdapter, ctx: SupplierCallContext) => Promise<T>): Promise<T> {
    const adapter = this.adapterFor(conn.supplierKey);
    if (!(await this.breaker.admit(conn.id, conn.circuitOpenUntil))) throw new CircuitOpenError(conn.circuitOpenUntil);
    try {
      const result = await fn(adapter, this.context(conn, this.credentialsOf(conn)));
      await this.breaker.recordSuccess(conn.id);
      return result;
    } catch (err) {
      if (err instanceof SupplierError && err.isOutage) await this.breaker.recordFailure(conn.id);
      throw err;
    }
  }
}
