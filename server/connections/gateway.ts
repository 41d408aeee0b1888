import type { DataSource } from 'typeorm';
import type { Secrets } from '../platform/crypto';
import type { SupplierAdapter, SupplierCallContext } from '../suppliers/adapter';
import { SupplierError } from '../suppliers/errors';
import type { SupplierRegistry } from '../suppliers/registry';
import type { CircuitBreaker } from './circuit-breaker';
import type { SupplierCallRates } from './call-rate';
import type { Health, SupplierConnection } from './types';
import { replaceCredentials } from './sql/connections';
import { recallOrderNumber, rememberOrderNumber, setHealth } from './sql/health';

/** How often a call's outcome refreshes a connection's health while it stays the same. */
const HEALTH_REFRESH_MS = 5 * 60_000;

export class CircuitOpenError extends SupplierError {
  constructor(
    readonly until: Date | null,
    message = 'The connection is paused after repeated supplier errors.',
  ) {
    super('unavailable', message);
  }
}

/** The credential field a sign-in that could not be renewed is marked with; only a new sign-in (new credentials) clears it. */
export const SIGN_IN_LAPSED = 'signInLapsed';

/** The connection's sign-in ended and was not renewed: paused (connectionUnhealthy) until the merchant signs in again. */
export class SignInLapsedError extends CircuitOpenError {
  constructor(message: string) {
    super(null, message);
  }
}

/** The one way to call a supplier for a connection: decrypted credentials, a time-out, the circuit breaker and the rate limit. */
export class SupplierGateway {
  constructor(
    private readonly registry: SupplierRegistry,
    private readonly secrets: Secrets,
    private readonly breaker: CircuitBreaker,
    private readonly timeoutMs: number,
    /** Where credential changes made during a call are kept; without it they live only as long as the call. */
    private readonly db?: DataSource,
    /** The shared rate limit per connection; without it calls are not spaced. */
    private readonly rates?: SupplierCallRates,
  ) {}

  adapterFor(supplierKey: string): SupplierAdapter {
    const adapter = this.registry.find(supplierKey);
    if (!adapter) throw new SupplierError('notSupported', `Unknown supplier ${supplierKey}.`);
    return adapter;
  }

  /** Credentials opened lately, by their sealed text (which changes whenever they do): a dispatch calls several times per part. */
  private readonly opened = new Map<string, Readonly<Record<string, string>>>();

  credentialsOf(conn: Pick<SupplierConnection, 'credentialsSealed'>): Record<string, string> {
    if (!conn.credentialsSealed) return {};
    let credentials = this.opened.get(conn.credentialsSealed);
    if (!credentials) {
      credentials = JSON.parse(this.secrets.decrypt(conn.credentialsSealed)) as Record<string, string>;
      if (this.opened.size >= 1000) this.opened.delete(this.opened.keys().next().value!);
      this.opened.set(conn.credentialsSealed, credentials);
    }
    // A copy: a call may add to its credentials (a refreshed token) before they are sealed again.
    return { ...credentials };
  }

  /** The supplier's account id as kept: a keyed digest, since some suppliers' ids are secrets (CJ signs notifications with it). */
  supplierAccountKey(accountId: string | undefined): string | null {
    return accountId ? this.secrets.supplierAccountKey(accountId) : null;
  }

  /** Signs a notification address (./addresses.ts), so an address names its store and cannot be made up. */
  addressTag(value: string): string {
    return this.secrets.addressTag(value);
  }

  sealCredentials(credentials: Record<string, string>): string {
    return this.secrets.encrypt(JSON.stringify(credentials));
  }

  /**
   * The adapter's view of a call. Credential changes the adapter reports go to `onCredentialsChanged` when one is
   * given (credentials not stored yet); otherwise, for a stored connection, to an encrypted update of its row.
   */
  context(
    conn: Pick<SupplierConnection, 'id' | 'mode' | 'settings'> &
      Partial<Pick<SupplierConnection, 'storeId' | 'credentialsSealed' | 'supplierKey' | 'automation'>>,
    credentials: Record<string, string>,
    onCredentialsChanged?: (changed: Record<string, string>) => Promise<void>,
  ): SupplierCallContext {
    const keep = onCredentialsChanged ?? this.keeper(conn, credentials);
    const pace = this.pacer(conn, credentials);
    const ordering = conn.automation ? { shippingMethod: conn.automation.shippingMethod ?? { rule: 'cheapest' as const } } : undefined;
    const orderNumbers = this.memoryOf(conn);
    return {
      connectionId: conn.id,
      mode: conn.mode,
      credentials,
      settings: conn.settings,
      timeoutMs: this.timeoutMs,
      ...(keep ? { onCredentialsChanged: keep } : {}),
      ...(pace ? { pace } : {}),
      ...(ordering ? { ordering } : {}),
      ...(orderNumbers ? { orderNumbers } : {}),
    };
  }

  /** A stored connection's order-number memory (credentials being verified have no row to keep it under). */
  private memoryOf(conn: Partial<Pick<SupplierConnection, 'id' | 'storeId' | 'credentialsSealed'>>): SupplierCallContext['orderNumbers'] {
    const db = this.db;
    if (!db || !conn.id || !conn.storeId || !conn.credentialsSealed) return undefined;
    const stored = { storeId: conn.storeId, id: conn.id };
    return { remember: (n, supplierOrderId) => rememberOrderNumber(db, stored, n, supplierOrderId), recall: (n) => recallOrderNumber(db, stored, n) };
  }

  /** Why the connection's sign-in lapsed, or null while it stands. */
  lapse(credentials: Record<string, string>): string | null {
    return credentials[SIGN_IN_LAPSED] || null;
  }

  /** The shared rate limit of the supplier account (or connection), when its supplier declares one. */
  private pacer(
    conn: Pick<SupplierConnection, 'id' | 'settings'> & Partial<Pick<SupplierConnection, 'supplierKey'>>,
    credentials: Record<string, string>,
  ): (() => Promise<void>) | undefined {
    const adapter = conn.supplierKey ? this.registry.find(conn.supplierKey) : null;
    const spacing = this.rates && adapter ? adapter.limits.callSpacingMs(conn.settings) : null;
    if (!spacing) return undefined;
    const key = adapter!.limits.rateKey?.(credentials) ?? (conn.id ? `connection:${conn.id}` : null);
    return key ? () => this.rates!.take(key, spacing) : undefined;
  }

  /**
   * Writes the merged credentials, sealed, only while the row still holds what this call started from: a key
   * replaced meanwhile, or another process's refresh, wins over this one. `credentials` reflects the change either way.
   */
  private keeper(conn: Partial<Pick<SupplierConnection, 'id' | 'storeId' | 'credentialsSealed'>>, credentials: Record<string, string>) {
    const db = this.db;
    if (!db || !conn.id || !conn.storeId || !conn.credentialsSealed) return undefined;
    const stored = { storeId: conn.storeId, id: conn.id };
    let expected = conn.credentialsSealed;
    return async (changed: Record<string, string>): Promise<void> => {
      Object.assign(credentials, changed);
      const sealed = this.sealCredentials(credentials);
      if (await replaceCredentials(db, stored, expected, sealed)) {
        expected = sealed;
        // Later calls through the same loaded row start from what is stored now.
        conn.credentialsSealed = sealed;
      }
    };
  }

  /** When this process last wrote each connection's health from a call, and what it said. */
  private readonly noted = new Map<string, { status: Health['status']; at: number }>();

  /**
   * The health shown is the latest known: a call's outcome counts like a check. Written when the status changes, and
   * otherwise at most once per HEALTH_REFRESH_MS per connection and process, so busy connections cost no extra writes.
   * Not while switched off: its health keeps saying why (an account the supplier refused), whatever its read-backs meet.
   */
  private async noteHealth(conn: SupplierConnection, ok: boolean, latencyMs: number, message: string): Promise<void> {
    if (!this.db || !conn.enabled) return;
    const status = ok ? ('healthy' as const) : ('unhealthy' as const);
    const now = Date.now();
    // The newer of what the row said when read (a check may have written since) and what this process wrote last.
    const row = conn.health ? { status: conn.health.status, at: Date.parse(conn.health.checkedAt) } : null;
    const memo = this.noted.get(conn.id);
    const last = !memo || (row && row.at > memo.at) ? row : memo;
    if (last && last.status === status && now - last.at < HEALTH_REFRESH_MS) return;
    this.noted.set(conn.id, { status, at: now });
    conn.health = { status, checkedAt: new Date(now).toISOString(), latencyMs, message };
    await setHealth(this.db, conn, conn.health);
  }

  async call<T>(conn: SupplierConnection, fn: (adapter: SupplierAdapter, ctx: SupplierCallContext) => Promise<T>): Promise<T> {
    const adapter = this.adapterFor(conn.supplierKey);
    const credentials = this.credentialsOf(conn);
    const lapsed = this.lapse(credentials);
    if (lapsed) throw new SignInLapsedError(lapsed);
    if (!(await this.breaker.admit(conn, conn.circuitOpenUntil))) throw new CircuitOpenError(conn.circuitOpenUntil);
    const started = Date.now();
    try {
      const result = await fn(adapter, this.context(conn, credentials));
      // Nothing to reset when the row, as read for this call, shows no failures and a closed circuit.
      if (conn.consecutiveFailures !== 0 || conn.circuitOpenUntil) await this.breaker.recordSuccess(conn);
      await this.noteHealth(conn, true, Date.now() - started, `${adapter.entry.name} answered the last call.`);
      return result;
    } catch (err) {
      if (err instanceof SupplierError && err.isSupplierFault) {
        await this.breaker.recordFailure(conn);
        await this.noteHealth(
          conn,
          false,
          Date.now() - started,
          `${adapter.entry.name} did not answer the last call in time, or answered with a server error.`,
        );
      }
      // Nothing can be ordered on that account: switched off, so its orders pause as connectionMissing until a person acts.
      if (err instanceof SupplierError && err.kind === 'accountUnusable' && this.db) {
        await setHealth(this.db, conn, { status: 'unhealthy', checkedAt: new Date().toISOString(), latencyMs: 0, message: err.message }, { switchOff: true });
      }
      throw err;
    }
  }
}
