import type { DataSource } from 'typeorm';
import type { SupplierRegistry } from '../suppliers/registry';
import type { SupplierConnection } from './types';
import * as sql from './sql/connections';

type Identified = Pick<SupplierConnection, 'id' | 'supplierAccountKey'>;

/**
 * Connections on one supplier account (several stores, or a reconnect) share the supplier's one notification
 * address: whichever of them registered last receives, and the service routes what arrives by who owns it.
 */
export class SharedAccounts {
  constructor(
    private readonly db: DataSource,
    private readonly registry: SupplierRegistry,
    /** Registers a connection's own address with its supplier (and keeps what the supplier answers). */
    private readonly register: (conn: SupplierConnection) => Promise<void>,
  ) {}

  /** Ids of the live connections on the same supplier account, the given one first. */
  async connectionIdsOf(conn: Identified): Promise<string[]> {
    if (!conn.supplierAccountKey) return [conn.id];
    return [conn.id, ...(await sql.otherLiveConnections(this.db, conn.supplierAccountKey, conn.id))];
  }

  /** Which of these account keys have more than one live connection. */
  async sharedKeys(keys: Array<string | null>): Promise<Set<string>> {
    const wanted = [...new Set(keys.filter((k): k is string => !!k))];
    if (!wanted.length) return new Set();
    return new Set(await sql.sharedAccountKeys(this.db, wanted));
  }

  /**
   * Registers the address of the newest other connection on the account that is switched on, so the supplier's
   * one address never points at a connection that stopped. When that fails, it is registered again at the next start.
   */
  async handOver(accountKey: string | null, leaving: string): Promise<void> {
    if (!accountKey) return;
    const conn = await sql.successorOnAccount(this.db, accountKey, leaving);
    if (!conn || this.registry.isSwitchedOff(conn.supplierKey)) return;
    try {
      await this.register(conn);
    } catch (err) {
      await sql.updateConnection(this.db, conn, { registeredNotificationAddress: null });
      throw err;
    }
  }
}
