import type { Creator } from '../identity/permissions';
import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Queryable } from '../platform/db';
import Ajv from 'ajv';
import { errors } from '../platform/errors';
import { sendsNotifications, supportsSignIn, type ConnectionMode, type Money, type SupplierAdapter } from '../suppliers/adapter';
import { SupplierError } from '../suppliers/errors';
import type { SupplierRegistry } from '../suppliers/registry';
import { Automation, DEFAULT_AUTOMATION, SupplierConnection } from './types';
import type { SupplierGateway } from './gateway';
import type { CircuitBreaker } from './circuit-breaker';
import { orSupplierFailure } from './http-errors';
import * as sql from './sql/connections';
import { setHealth } from './sql/health';
import { SharedAccounts } from './shared-accounts';

export interface ConnectionView {
  id: string;
  storeId: string;
  supplierKey: string;
  mode: ConnectionMode;
  enabled: boolean;
  hasCredentials: boolean;
  accountLabel: string;
  settings: Record<string, unknown>;
  automation: Automation;
  health: SupplierConnection['health'];
  isCircuitOpen: boolean;
  circuitOpenUntil: string | null;
  lastWebhookAt: string | null;
  webhookUrl: string;
  sharedSupplierAccount: boolean;
  createdByKeyId: string | null;
  createdAt: string;
  updatedAt: string;
}


/** Counts what disconnecting would affect; the catalogue and dispatch areas each add theirs. */
export type ImpactCounter = (connectionId: string) => Promise<Record<string, number>>;
/** Removes what another domain keeps of a connection, inside the disconnect's transaction; answers how many links went. */
export type DisconnectStep = (tx: Queryable, connectionId: string) => Promise<number>;

const settingsAjv = new Ajv({ allErrors: true, useDefaults: true, strict: false });

/** Credentials not stored yet: what the adapter obtains while verifying them (such as a token) joins them, to be stored with them. */
function gathering(credentials: Record<string, string>) {
  const working = { ...credentials };
  return { working, onChanged: async (changed: Record<string, string>) => void Object.assign(working, changed) };
}

export class ConnectionService {
  readonly accounts: SharedAccounts;
  private readonly impactCounters: ImpactCounter[] = [];
  private readonly disconnectSteps: DisconnectStep[] = [];
  private readonly settingsValidators = new Map<string, ReturnType<Ajv['compile']>>();

  constructor(
    private readonly db: DataSource,
    private readonly registry: SupplierRegistry,
    private readonly gateway: SupplierGateway,
    private readonly breaker: CircuitBreaker,
    private readonly publicBaseUrl: () => string,
  ) {
    this.accounts = new SharedAccounts(db, registry, gateway, (conn) => this.reregisterAddress(conn));
  }

  addImpactCounter(counter: ImpactCounter): void {
    this.impactCounters.push(counter);
  }

  /** What another domain removes with a connection, in the transaction that disconnects it (answers how many links went). */
  onDisconnect(step: DisconnectStep): void {
    this.disconnectSteps.push(step);
  }

  /** The configured public address of this service, or '' when none is set. */
  publicBase(): string {
    return this.publicBaseUrl();
  }

  notificationAddressOf(conn: Pick<SupplierConnection, 'id' | 'supplierKey'>): string {
    const base = this.publicBaseUrl();
    return base ? `${base}/api/store-suppliers/webhook/${conn.supplierKey}/${conn.id}` : '';
  }

  /** Connections as answered, each saying whether another live connection is on the same supplier account. */
  async present(c: SupplierConnection): Promise<ConnectionView>;
  async present(c: SupplierConnection[]): Promise<ConnectionView[]>;
  async present(c: SupplierConnection | SupplierConnection[]): Promise<ConnectionView | ConnectionView[]> {
    const list = Array.isArray(c) ? c : [c];
    const shared = await this.accounts.sharedKeys(list.map((x) => x.supplierAccountKey));
    const views = list.map((x) => this.view(x, !!x.supplierAccountKey && shared.has(x.supplierAccountKey)));
    return Array.isArray(c) ? views : views[0];
  }

  view(c: SupplierConnection, sharedSupplierAccount = false): ConnectionView {
    const open = !!c.circuitOpenUntil && c.circuitOpenUntil.getTime() > Date.now();
    return {
      id: c.id,
      storeId: c.storeId,
      supplierKey: c.supplierKey,
      mode: c.mode,
      enabled: c.enabled,
      hasCredentials: !!c.credentialsSealed,
      accountLabel: c.accountLabel,
      settings: c.settings,
      automation: c.automation,
      health: c.health,
      isCircuitOpen: open,
      circuitOpenUntil: open ? c.circuitOpenUntil!.toISOString() : null,
      lastWebhookAt: c.lastWebhookAt ? c.lastWebhookAt.toISOString() : null,
      webhookUrl: this.notificationAddressOf(c),
      sharedSupplierAccount,
      createdByKeyId: c.createdByKeyId,
      createdAt: c.createdAt.toISOString(),
      updatedAt: c.updatedAt.toISOString(),
    };
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

  private adapter(supplierKey: string): SupplierAdapter {
    const adapter = this.registry.find(supplierKey);
    if (!adapter) throw errors.validationFailed([{ field: 'body/supplierKey', message: `no supplier ${supplierKey} in the catalogue` }]);
    if (this.registry.isSwitchedOff(supplierKey)) throw errors.badRequest('supplierSwitchedOff', `The supplier ${supplierKey} is switched off by the operator of this service.`);
    return adapter;
  }

  validateCredentials(adapter: SupplierAdapter, credentials: Record<string, unknown>): Record<string, string> {
    if (supportsSignIn(adapter)) throw errors.badRequest('signInRequired', `${adapter.entry.name} is connected through sign-in: use POST /:storeId/oauth/start.`);
    const validate = settingsAjv.compile(adapter.entry.credentialsSchema);
    if (!validate(credentials)) {
      throw errors.validationFailed((validate.errors ?? []).map((e) => ({ field: `body/credentials${e.instancePath}`, message: e.message ?? 'is not valid' })));
    }
    return credentials as Record<string, string>;
  }

  private validateSettings(adapter: SupplierAdapter, settings: Record<string, unknown>): Record<string, unknown> {
    let validate = this.settingsValidators.get(adapter.entry.key);
    if (!validate) {
      validate = settingsAjv.compile(adapter.entry.settingsSchema);
      this.settingsValidators.set(adapter.entry.key, validate);
    }
    const copy = { ...adapter.entry.defaultSettings, ...settings };
    if (!validate(copy)) {
      throw errors.validationFailed((validate.errors ?? []).map((e) => ({ field: `body/settings${e.instancePath}`, message: e.message ?? 'is not valid' })));
    }
    return copy;
  }

  /** Verifies with the supplier first; nothing is stored when it refuses. */
  async connect(
    storeId: string,
    input: { supplierKey: string; mode: ConnectionMode; credentials: Record<string, string>; settings?: Record<string, unknown>; automation?: Partial<Automation> },
    creator: Creator,
  ): Promise<SupplierConnection> {
    const adapter = this.adapter(input.supplierKey);
    const settings = this.validateSettings(adapter, input.settings ?? {});
    // The supplier key lets the checks made while connecting take their turns of the account's rate limit too.
    const draft = { id: crypto.randomUUID(), mode: input.mode, settings, supplierKey: input.supplierKey };
    const { working, onChanged } = gathering(input.credentials);
    const { accountLabel, accountId } = await orSupplierFailure(adapter.verifyCredentials(this.gateway.context(draft, working, onChanged)));
    await this.assertNotConnected(storeId, input.supplierKey, input.mode);
    const registered = await this.registerAddress(adapter, draft, working, onChanged);
    const credentials = { ...working, ...registered.fields };
    const fields = {
      id: draft.id,
      storeId,
      supplierKey: input.supplierKey,
      mode: input.mode,
      enabled: true,
      credentialsSealed: this.gateway.sealCredentials(credentials),
      accountLabel,
      settings,
      automation: { ...DEFAULT_AUTOMATION, ...(input.automation ?? {}) },
      health: null,
      consecutiveFailures: 0,
      circuitOpenUntil: null,
      lastWebhookAt: null,
      disconnectedAt: null,
      registeredNotificationAddress: registered.url,
      supplierAccountKey: this.gateway.supplierAccountKey(accountId),
      ...creator,
    };
    try {
      return await sql.insertConnection(this.db, fields);
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

  /** Registers the notification address with suppliers that take one; answers credential fields to keep and the address registered. */
  private async registerAddress(
    adapter: SupplierAdapter,
    conn: { id: string; mode: ConnectionMode; settings: Record<string, unknown>; credentialsSealed?: string | null },
    credentials: Record<string, string>,
    onChanged?: (changed: Record<string, string>) => Promise<void>,
  ): Promise<{ fields: Record<string, string>; url: string | null }> {
    const url = this.notificationAddressOf({ id: conn.id, supplierKey: adapter.entry.key });
    if (!url || !sendsNotifications(adapter)) return { fields: {}, url: null };
    return { fields: await orSupplierFailure(adapter.registerNotificationAddress(this.gateway.context(conn, credentials, onChanged), url)), url };
  }

  async replaceCredentials(conn: SupplierConnection, credentials: Record<string, string>): Promise<SupplierConnection> {
    const adapter = this.gateway.adapterFor(conn.supplierKey);
    // The new credentials are gathered, not written into the row, until they are verified.
    const { working, onChanged } = gathering(credentials);
    const { accountLabel, accountId } = await orSupplierFailure(adapter.verifyCredentials(this.gateway.context(conn, working, onChanged)));
    const registered = await this.registerAddress(adapter, conn, working, onChanged);
    const kept = { ...working, ...registered.fields };
    const supplierAccountKey = this.gateway.supplierAccountKey(accountId);
    const replaced = await sql.updateConnection(this.db, conn.id, {
      credentialsSealed: this.gateway.sealCredentials(kept),
      accountLabel,
      consecutiveFailures: 0,
      circuitOpenUntil: null,
      registeredNotificationAddress: registered.url,
      supplierAccountKey,
    });
    // Moved to another supplier account: the one it left may have been receiving through it.
    if (conn.supplierAccountKey && conn.supplierAccountKey !== supplierAccountKey) await this.accounts.handOver(conn.supplierAccountKey, conn.id).catch(() => undefined);
    return replaced;
  }

  /** Re-registers the notification address (for example after PUBLIC_BASE_URL changed). */
  async reregisterAddress(conn: SupplierConnection): Promise<void> {
    const adapter = this.gateway.adapterFor(conn.supplierKey);
    const credentials = this.gateway.credentialsOf(conn);
    const registered = await this.registerAddress(adapter, conn, credentials);
    await sql.updateConnection(this.db, conn.id, {
      registeredNotificationAddress: registered.url,
      ...(Object.keys(registered.fields).length ? { credentialsSealed: this.gateway.sealCredentials({ ...credentials, ...registered.fields }) } : {}),
    });
  }

  /** At start: registers the notification address again with every connection whose address changed since. */
  async reregisterChangedAddresses(onError: (connectionId: string, err: unknown) => void): Promise<number> {
    const live = await sql.liveConnections(this.db);
    let changed = 0;
    for (const conn of live) {
      const adapter = this.registry.find(conn.supplierKey);
      if (!conn.credentialsSealed || !adapter || this.registry.isSwitchedOff(conn.supplierKey)) continue;
      // Connections made before accounts were told apart learn theirs once.
      if (!conn.supplierAccountKey) await this.accounts.identify(conn, adapter).catch((err: unknown) => onError(conn.id, err));
      if (!sendsNotifications(adapter)) continue;
      const url = this.notificationAddressOf(conn) || null;
      if (url === conn.registeredNotificationAddress) continue;
      try {
        await this.reregisterAddress(conn);
        changed++;
      } catch (err) {
        onError(conn.id, err);
      }
    }
    return changed;
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
    if (result.ok) await this.breaker.recordSuccess(conn.id);
    else await this.breaker.recordFailure(conn.id);
    const health = { status: result.ok ? 'healthy' : 'unhealthy', checkedAt: new Date().toISOString(), latencyMs: result.latencyMs, message: result.message } as const;
    return (await setHealth(this.db, conn.id, health)) ?? conn;
  }

  async balance(conn: SupplierConnection): Promise<Money> {
    const adapter = this.gateway.adapterFor(conn.supplierKey);
    if (!adapter.entry.capabilities.balance) throw errors.badRequest('balanceNotSupported', `${adapter.entry.name} does not report a balance.`);
    return orSupplierFailure(this.gateway.call(conn, (a, ctx) => a.getBalance(ctx)));
  }

  async impact(conn: SupplierConnection): Promise<Record<string, number>> {
    const counts: Record<string, number> = { linkedProducts: 0, openSupplierOrders: 0 };
    for (const counter of this.impactCounters) Object.assign(counts, await counter(conn.id));
    return counts;
  }

  async changeSettings(conn: SupplierConnection, settings: Record<string, unknown>): Promise<SupplierConnection> {
    const valid = this.validateSettings(this.gateway.adapterFor(conn.supplierKey), settings);
    return sql.updateConnection(this.db, conn.id, { settings: valid as SupplierConnection['settings'] });
  }

  /** Fields given are changed; the others keep their values. */
  async changeAutomation(conn: SupplierConnection, changes: Partial<Automation>): Promise<SupplierConnection> {
    const automation: Automation = { ...DEFAULT_AUTOMATION, ...conn.automation, ...changes };
    automation.excludedCountries = [...new Set(automation.excludedCountries.map((c) => c.toUpperCase()))].sort();
    return sql.updateConnection(this.db, conn.id, { automation });
  }

  async setEnabled(conn: SupplierConnection, enabled: boolean): Promise<SupplierConnection> {
    const changed = await sql.updateConnection(this.db, conn.id, { enabled });
    // A connection switched off refuses notifications: the account's other connections must not lose theirs.
    if (!enabled && conn.enabled) await this.accounts.handOver(conn.supplierAccountKey, conn.id).catch(() => undefined);
    return changed;
  }

  /**
   * Credentials are deleted and the connection's product links removed, in one transaction; the row stays
   * (disconnected) so history that names it still resolves, and the products stay as the store's own.
   * Another connection on the same supplier account then takes over its notification address.
   */
  async disconnect(conn: SupplierConnection): Promise<{ impact: Record<string, number>; removedLinks: number; handOverError: unknown }> {
    const impact = await this.impact(conn);
    const removedLinks = await this.db.transaction(async (tx) => {
      if (!(await sql.disconnect(tx, conn.id))) throw errors.notFound('The connection');
      // Links to a supplier that is gone mean nothing: the catalogue removes them in the same transaction.
      let removed = 0;
      for (const step of this.disconnectSteps) removed += await step(tx, conn.id);
      return removed;
    });
    let handOverError: unknown = null;
    await this.accounts.handOver(conn.supplierAccountKey, conn.id).catch((err: unknown) => void (handOverError = err));
    return { impact, removedLinks, handOverError };
  }

  /** For the notification address: any state, so the caller can refuse disconnected ones alike. */
  findById(id: string): Promise<SupplierConnection | null> {
    return sql.connectionById(this.db, id);
  }
}
