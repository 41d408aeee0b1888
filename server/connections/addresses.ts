import type { DataSource } from 'typeorm';
import { sendsNotifications, type ConnectionMode, type SupplierAdapter } from '../suppliers/adapter';
import type { SupplierRegistry } from '../suppliers/registry';
import type { SupplierGateway } from './gateway';
import { sameSecret } from '../platform/crypto';
import { orSupplierFailure } from './http-errors';
import * as sql from './sql/connections';
import type { SupplierConnection } from './types';

/** Where suppliers send notifications, under this service's public address. */
export const NOTIFICATION_PATH = '/api/store-suppliers/webhook';

const SIGNED_ID = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([0-9a-f]{32})\.([A-Za-z0-9_-]{22})$/;
const tagged = (supplierKey: string, connectionId: string, storeId: string) => `${supplierKey}|${connectionId}|${storeId}`;

/**
 * The last part of the spec's address (`/webhook/:supplierKey/:id`): the connection, its store without dashes, and a
 * tag binding them to the supplier, so a notification's look-up reads the store's shard alone and no one makes one up.
 */
export function addressIdOf(conn: Pick<SupplierConnection, 'id' | 'storeId' | 'supplierKey'>, tag: (value: string) => string): string {
  return `${conn.id}.${conn.storeId.replace(/-/g, '')}.${tag(tagged(conn.supplierKey, conn.id, conn.storeId))}`;
}

/** The connection and store an address's signed id names; null when it is not one, or its tag is not ours. */
export function readAddressId(supplierKey: string, id: string, tag: (value: string) => string): { connectionId: string; storeId: string } | null {
  const m = SIGNED_ID.exec(id);
  if (!m) return null;
  const storeId = m[2].replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
  return sameSecret(tag(tagged(supplierKey, m[1], storeId)), m[3]) ? { connectionId: m[1], storeId } : null;
}

/** Each connection's notification address at this service, as registered with suppliers that take one. */
export class NotificationAddresses {
  constructor(
    private readonly db: DataSource,
    private readonly registry: SupplierRegistry,
    private readonly gateway: SupplierGateway,
    private readonly publicBaseUrl: () => string,
  ) {}

  /**
   * The connection's address, the spec's form ('' while no public address of this service is configured). Its id
   * carries the store, so the notification finds its connection on the store's shard.
   */
  of(conn: Pick<SupplierConnection, 'id' | 'storeId' | 'supplierKey'>): string {
    const base = this.publicBaseUrl();
    return base ? `${base}${NOTIFICATION_PATH}/${conn.supplierKey}/${addressIdOf(conn, (v) => this.gateway.addressTag(v))}` : '';
  }

  /** Registers the notification address with suppliers that take one; answers credential fields to keep and the address registered. */
  async register(
    adapter: SupplierAdapter,
    conn: { id: string; storeId: string; mode: ConnectionMode; settings: Record<string, unknown>; credentialsSealed?: string | null },
    credentials: Record<string, string>,
    onChanged?: (changed: Record<string, string>) => Promise<void>,
  ): Promise<{ fields: Record<string, string>; url: string | null }> {
    const url = this.of({ id: conn.id, storeId: conn.storeId, supplierKey: adapter.entry.key });
    if (!url || !sendsNotifications(adapter)) return { fields: {}, url: null };
    return { fields: await orSupplierFailure(adapter.registerNotificationAddress(this.gateway.context(conn, credentials, onChanged), url)), url };
  }

  /** Re-registers the notification address (for example after PUBLIC_BASE_URL changed). */
  async reregister(conn: SupplierConnection): Promise<void> {
    const adapter = this.gateway.adapterFor(conn.supplierKey);
    const credentials = this.gateway.credentialsOf(conn);
    const registered = await this.register(adapter, conn, credentials);
    await sql.updateConnection(this.db, conn, {
      registeredNotificationAddress: registered.url,
      ...(Object.keys(registered.fields).length ? { credentialsSealed: this.gateway.sealCredentials({ ...credentials, ...registered.fields }) } : {}),
    });
  }

  /**
   * At start: registers the notification address again with every connection whose registered address differs from
   * the one it should have (a new PUBLIC_BASE_URL, or one that could not be registered before).
   */
  async reregisterChanged(onError: (connectionId: string, err: unknown) => void): Promise<number> {
    const live = await sql.liveConnections(this.db);
    let changed = 0;
    for (const conn of live) {
      const adapter = this.registry.find(conn.supplierKey);
      if (!conn.credentialsSealed || !adapter || this.registry.isSwitchedOff(conn.supplierKey) || !sendsNotifications(adapter)) continue;
      const url = this.of(conn) || null;
      if (url === conn.registeredNotificationAddress) continue;
      try {
        await this.reregister(conn);
        changed++;
      } catch (err) {
        onError(conn.id, err);
      }
    }
    return changed;
  }
}
