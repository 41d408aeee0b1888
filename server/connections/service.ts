import type { Creator } from '../identity/permissions';
import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Queryable } from '../platform/db';
import { errors } from '../platform/errors';
import type { ConnectionMode, Money } from '../suppliers/adapter';
import { SupplierError } from '../suppliers/errors';
import type { SupplierRegistry } from '../suppliers/registry';
import { Automation, DEFAULT_AUTOMATION, type KeptOfConnection, SupplierConnection } from './types';
import type { SupplierGateway } from './gateway';
import type { CircuitBreaker } from './circuit-breaker';
import { orSupplierFailure } from './http-errors';
import { verifyCredentials } from './credentials';
import * as sql from './sql/connections';
import { setHealth } from './sql/health';
import { NotificationAddresses } from './addresses';
import { ConnectionSettings } from './settings';
import { SharedAccounts } from './shared-accounts';
import { type ConnectionView, connectionView } from './views';

export type { ConnectionView } from './views';
// Declared with the domain's types; its routes and index.ts take it from here.
export type { KeptOfConnection } from './types';

export class ConnectionService {
  readonly accounts: SharedAccounts;

  constructor(
    private readonly db: DataSource,
    registry: SupplierRegistry,
    private readonly gateway: SupplierGateway,
    private readonly breaker: CircuitBreaker,
    private readonly publicBaseUrl: () => string,
  ) {
    this.addresses = new NotificationAddresses(db, registry, gateway, publicBaseUrl);
    this.accounts = new SharedAccounts(db, registry, (conn) => this.addresses.reregister(conn));
    this.settings = new ConnectionSettings(registry);
  }
  /** Where each connection's supplier sends its notifications, registered with the supplier. */
  readonly addresses: NotificationAddresses;
  /** What a connection is made with (credentials, settings), checked against its supplier's schemas. */
  readonly settings: ConnectionSettings;

  /** The configured public address of this service, or '' when none is set. */
  publicBase(): string {
    return this.publicBaseUrl();
  }

  /** Re-registers the notification address (for example after PUBLIC_BASE_URL changed). */
  reregisterAddress(conn: SupplierConnection): Promise<void> {
    return this.addresses.reregister(conn);
  }

  /** At start: registers the notification address again with every connection whose address changed since. */
  reregisterChangedAddresses(onError: (connectionId: string, err: unknown) => void): Promise<number> {
    return this.addresses.reregisterChanged(onError);
  }

  /** Connections as answered, each saying whether another live connection is on the same supplier account. */
  async present(c: SupplierConnection): Promise<ConnectionView>;
  async present(c: SupplierConnection[]): Promise<ConnectionView[]>;
  async present(c: SupplierConnection | SupplierConnection[]): Promise<ConnectionView | ConnectionView[]> {
    const list = Array.isArray(c) ? c : [c];
    const shared = await this.accounts.sharedKeys(list.map((x) => x.supplierAccountKey));
    const views = list.map((x) => connectionView(x, this.addresses.of(x), !!x.supplierAccountKey && shared.has(x.supplierAccountKey)));
    return Array.isArray(c) ? views : views[0];
  }

  list(storeId: string, ownKeyId: string | null): Promise<SupplierConnection[]> {
    return sql.liveConnectionsOfStore(this.db, storeId, ownKeyId);
  }

  /** A live connection of the store within the caller's record scope, or 404. */
  async get(storeId: string, id: string, ownKeyId: string | null): Promise<SupplierConnection> {
    const conn = await sql.liveConnectionInStore(this.db, storeId, id);
    if (!conn || (ownKeyId && conn.createdByKeyId !== ownKeyId)) throw errors.notFound('The connection');
    return conn;
  }

  /** Verifies with the supplier first; nothing is stored when it refuses. `within`: what commits with the connection (its credit). */
  async connect(
    storeId: string,
    input: {
      supplierKey: string;
      mode: ConnectionMode;
      credentials: Record<string, string>;
      settings?: Record<string, unknown>;
      automation?: Partial<Automation>;
    },
    creator: Creator,
    within?: (tx: Queryable) => Promise<void>,
  ): Promise<SupplierConnection> {
    const adapter = this.settings.adapter(input.supplierKey);
    const settings = this.settings.validateSettings(adapter, input.settings ?? {});
    // The supplier key lets the checks made while connecting take their turns of the account's rate limit too.
    const draft = { id: crypto.randomUUID(), storeId, mode: input.mode, settings, supplierKey: input.supplierKey };
    const verified = await verifyCredentials(this.gateway, this.addresses, adapter, draft, input.credentials, () =>
      this.assertNotConnected(storeId, input.supplierKey, input.mode),
    );
    const fields = {
      id: draft.id,
      storeId,
      supplierKey: input.supplierKey,
      mode: input.mode,
      enabled: true,
      ...verified,
      settings,
      automation: { ...DEFAULT_AUTOMATION, ...(input.automation ?? {}) },
      health: null,
      consecutiveFailures: 0,
      circuitOpenUntil: null,
      lastWebhookAt: null,
      disconnectedAt: null,
      ...creator,
    };
    try {
      return await this.db.transaction(async (tx) => {
        const conn = await sql.insertConnection(tx, fields);
        await within?.(tx);
        return conn;
      });
    } catch (e) {
      if ((e as { code?: string }).code === '23505') throw this.alreadyConnected(input.supplierKey, input.mode);
      throw e;
    }
  }

  private alreadyConnected(supplierKey: string, mode: string) {
    return errors.conflict('alreadyConnected', `The store already has a ${mode} connection to ${supplierKey}; replace its credentials instead.`);
  }

  /** The store's live connection to the supplier in that mode, if it has one (there is at most one). */
  liveOf(storeId: string, supplierKey: string, mode: ConnectionMode): Promise<SupplierConnection | null> {
    return sql.liveConnectionTo(this.db, storeId, supplierKey, mode);
  }

  private async assertNotConnected(storeId: string, supplierKey: string, mode: ConnectionMode): Promise<void> {
    if (await this.liveOf(storeId, supplierKey, mode)) throw this.alreadyConnected(supplierKey, mode);
  }

  async replaceCredentials(conn: SupplierConnection, credentials: Record<string, string>): Promise<SupplierConnection> {
    const verified = await verifyCredentials(this.gateway, this.addresses, this.gateway.adapterFor(conn.supplierKey), conn, credentials);
    const { supplierAccountKey } = verified;
    const replaced = await sql.updateConnection(this.db, conn, { ...verified, consecutiveFailures: 0, circuitOpenUntil: null });
    // Moved to another supplier account: the one it left may have been receiving through it.
    if (conn.supplierAccountKey && conn.supplierAccountKey !== supplierAccountKey)
      await this.accounts.handOver(conn.supplierAccountKey, conn.id).catch(() => undefined);
    return replaced;
  }

  /** Checks now and records health; a healthy answer also closes the circuit. */
  async test(conn: SupplierConnection): Promise<SupplierConnection> {
    const adapter = this.gateway.adapterFor(conn.supplierKey);
    const started = Date.now();
    let result: { ok: boolean; latencyMs: number; message: string };
    const credentials = this.gateway.credentialsOf(conn);
    const lapsed = this.gateway.lapse(credentials);
    try {
      // A sign-in that lapsed stays lapsed whatever the supplier answers now: only signing in again clears it.
      result = lapsed ? { ok: false, latencyMs: 0, message: lapsed } : await adapter.healthCheck(this.gateway.context(conn, credentials));
    } catch (err) {
      result = { ok: false, latencyMs: Date.now() - started, message: err instanceof SupplierError ? err.message : 'The check failed.' };
    }
    if (result.ok) await this.breaker.recordSuccess(conn);
    else await this.breaker.recordFailure(conn);
    const health = {
      status: result.ok ? 'healthy' : 'unhealthy',
      checkedAt: new Date().toISOString(),
      latencyMs: result.latencyMs,
      message: result.message,
    } as const;
    return (await setHealth(this.db, conn, health)) ?? conn;
  }

  async balance(conn: SupplierConnection): Promise<Money> {
    const adapter = this.gateway.adapterFor(conn.supplierKey);
    if (!adapter.entry.capabilities.balance) throw errors.badRequest('balanceNotSupported', `${adapter.entry.name} does not report a balance.`);
    return orSupplierFailure(this.gateway.call(conn, (a, ctx) => a.getBalance(ctx)));
  }

  async impact(conn: SupplierConnection, kept: KeptOfConnection): Promise<{ linkedProducts: number; openSupplierOrders: number }> {
    return { linkedProducts: await kept.links.count(conn.id, conn.storeId), openSupplierOrders: await kept.openSupplierOrders(conn.id, conn.storeId) };
  }

  async changeSettings(conn: SupplierConnection, settings: Record<string, unknown>): Promise<SupplierConnection> {
    const valid = this.settings.validateSettings(this.gateway.adapterFor(conn.supplierKey), settings);
    return sql.updateConnection(this.db, conn, { settings: valid as SupplierConnection['settings'] });
  }

  /** Fields given are changed; the others keep their values. */
  async changeAutomation(conn: SupplierConnection, changes: Partial<Automation>): Promise<SupplierConnection> {
    const automation: Automation = { ...DEFAULT_AUTOMATION, ...conn.automation, ...changes };
    automation.excludedCountries = [...new Set(automation.excludedCountries.map((c) => c.toUpperCase()))].sort();
    return sql.updateConnection(this.db, conn, { automation });
  }

  async setEnabled(conn: SupplierConnection, enabled: boolean): Promise<SupplierConnection> {
    const changed = await sql.updateConnection(this.db, conn, { enabled });
    // A connection switched off refuses notifications: the account's other connections must not lose theirs.
    if (!enabled && conn.enabled) await this.accounts.handOver(conn.supplierAccountKey, conn.id).catch(() => undefined);
    return changed;
  }

  /**
   * Credentials are deleted and the connection's product links removed, in one transaction; the row stays
   * (disconnected) so history that names it still resolves, and the products stay as the store's own.
   * Another connection on the same supplier account then takes over its notification address.
   */
  async disconnect(
    conn: SupplierConnection,
    kept: KeptOfConnection,
  ): Promise<{ impact: Record<string, number>; removedLinks: number; handOverError: unknown }> {
    const impact = await this.impact(conn, kept);
    const removedLinks = await this.db.transaction(async (tx) => {
      if (!(await sql.disconnect(tx, conn))) throw errors.notFound('The connection');
      // Links to a supplier that is gone mean nothing: the catalogue removes them in the same transaction.
      return kept.links.remove(tx, conn.id, conn.storeId);
    });
    let handOverError: unknown = null;
    await this.accounts.handOver(conn.supplierAccountKey, conn.id).catch((err: unknown) => void (handOverError = err));
    return { impact, removedLinks, handOverError };
  }

  /** A connection of the store in any state, so the caller can refuse disconnected ones alike. */
  findById(id: string, storeId: string): Promise<SupplierConnection | null> {
    return sql.connectionInStore(this.db, storeId, id);
  }
}
