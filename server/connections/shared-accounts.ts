import type { DataSource } from 'typeorm';
import { sqlRows } from '../platform/db';
import type { SupplierConnection } from './entities';

type Identified = Pick<SupplierConnection, 'id' | 'supplierAccountKey'>;

/**
 * Connections on one supplier account (several stores, or a reconnect) share the supplier's one notification
 * address: whichever of them registered last receives, and the service routes what arrives by who owns it.
 */
export class SharedAccounts {
  constructor(private readonly db: DataSource) {}

  /** Ids of the live connections on the same supplier account, the given one first. */
  async connectionIdsOf(conn: Identified): Promise<string[]> {
    if (!conn.supplierAccountKey) return [conn.id];
    const rows = await sqlRows<{ id: string }>(this.db, 'SELECT id FROM supplier_connections WHERE supplier_account_key = $1 AND disconnected_at IS NULL AND id <> $2', [conn.supplierAccountKey, conn.id]);
    return [conn.id, ...rows.map((r) => r.id)];
  }

  /** Which of these account keys have more than one live connection. */
  async sharedKeys(keys: Array<string | null>): Promise<Set<string>> {
    const wanted = [...new Set(keys.filter((k): k is string => !!k))];
    if (!wanted.length) return new Set();
    const rows = await sqlRows<{ key: string }>(
      this.db,
      'SELECT supplier_account_key AS key FROM supplier_connections WHERE supplier_account_key = ANY($1) AND disconnected_at IS NULL GROUP BY 1 HAVING count(*) > 1',
      [wanted],
    );
    return new Set(rows.map((r) => r.key));
  }

  /** The live connection with credentials that should receive the account's notifications once `leaving` stops: the newest. */
  async successor(accountKey: string | null, leaving: string): Promise<string | null> {
    if (!accountKey) return null;
    const [row] = await sqlRows<{ id: string }>(
      this.db,
      `SELECT id FROM supplier_connections WHERE supplier_account_key = $1 AND disconnected_at IS NULL AND credentials_sealed IS NOT NULL AND id <> $2
        ORDER BY created_at DESC, id DESC LIMIT 1`,
      [accountKey, leaving],
    );
    return row?.id ?? null;
  }
}
