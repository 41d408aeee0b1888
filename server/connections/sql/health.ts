import { outboxStep } from '../../events';
import { affected, Params, type Queryable, rows } from '../../platform/db';
import type { Health, SupplierConnection } from '../types';
import type { StoreConnection } from './connections';
import { type ConnectionRow, connectionOf, connectionSnapshot } from './rows';

// What the connection's row says of its supplier: the circuit breaker and the health (each written in one place, with
// the event its change makes), the shared call rate, and the order numbers a supplier cannot look up itself.

/**
 * An update of one connection row (`set`, over the row `s`; `where`, over the row as it is now), with the event of
 * `type` when `changed` holds of the row as written (`c`) and its value before (`c.was`, from `before`, read with the
 * row locked, so it is the value this update replaces). Answers the row as written, or none.
 */
async function changeWithEvent(
  db: Queryable,
  p: Params,
  o: { conn: StoreConnection; set: string; where?: string; before: string; type: string; changed: string },
): Promise<SupplierConnection | null> {
  const store = p.add(o.conn.storeId);
  const event = outboxStep({
    from: 'c',
    type: `'${o.type}'`,
    storeId: 'c.store_id',
    resourceKey: `'connection:' || c.id`,
    recordKeyId: 'c.created_by_key_id',
    snapshot: connectionSnapshot('c'),
    where: o.changed,
  });
  const [r] = await rows<ConnectionRow>(
    db,
    `WITH was AS (SELECT id, ${o.before} AS was FROM supplier_connections WHERE store_id = ${store} AND id = ${p.add(o.conn.id)}${o.where ? ` AND ${o.where}` : ''} FOR UPDATE),
          c AS (UPDATE supplier_connections s SET ${o.set} FROM was WHERE s.store_id = ${store} AND s.id = was.id RETURNING s.*, was.was),
          ev AS (${event})
     SELECT * FROM c`,
    p.values,
  );
  return r ? connectionOf(r) : null;
}

// --- Circuit breaker (kept in the connection row, so every process sees the same state)

/** The one caller that moves an expired open circuit's time on gets the trial call. */
export async function claimTrialCall(db: Queryable, conn: StoreConnection, cooldownSeconds: number): Promise<boolean> {
  const claimed = await affected(
    db,
    `UPDATE supplier_connections SET circuit_open_until = now() + make_interval(secs => $3)
      WHERE store_id = $1 AND id = $2 AND circuit_open_until IS NOT NULL AND circuit_open_until <= now()`,
    [conn.storeId, conn.id, cooldownSeconds],
  );
  return claimed > 0;
}

export async function closeCircuit(db: Queryable, conn: StoreConnection): Promise<void> {
  await affected(
    db,
    `UPDATE supplier_connections SET consecutive_failures = 0, circuit_open_until = NULL
      WHERE store_id = $1 AND id = $2 AND (consecutive_failures <> 0 OR circuit_open_until IS NOT NULL)`,
    [conn.storeId, conn.id],
  );
}

/** A failure counted; at the threshold the circuit opens, with `connection.circuitOpened` when it was closed (not again from its trial call). */
export async function countFailure(db: Queryable, conn: StoreConnection, failureThreshold: number, cooldownSeconds: number): Promise<void> {
  const p = new Params();
  const [threshold, cooldown] = [p.add(failureThreshold), p.add(cooldownSeconds)];
  await changeWithEvent(db, p, {
    conn,
    set: `consecutive_failures = s.consecutive_failures + 1,
          circuit_open_until = CASE WHEN s.consecutive_failures + 1 >= ${threshold} THEN now() + make_interval(secs => ${cooldown}) ELSE s.circuit_open_until END`,
    before: 'circuit_open_until',
    type: 'connection.circuitOpened',
    changed: 'c.was IS NULL AND c.circuit_open_until IS NOT NULL',
  });
}

// --- Health

/**
 * The one write of a connection's health, with `connection.healthChanged` when its status changed. `also`: the
 * supplier will not take orders from the account (the live connection is switched off), or the credentials a renewal
 * made replace the ones it started from (written only while the row still holds `expected`: a new sign-in wins).
 * Answers the connection as written, or null when it was not.
 */
export function setHealth(
  db: Queryable,
  conn: StoreConnection,
  health: Health,
  also: { switchOff?: true; credentials?: { expected: string; sealed: string } } = {},
): Promise<SupplierConnection | null> {
  const p = new Params();
  const set = [`health = ${p.json(health)}`, 'updated_at = now()'];
  const where: string[] = [];
  if (also.switchOff) set.push('enabled = false');
  if (also.switchOff || also.credentials) where.push('disconnected_at IS NULL');
  if (also.credentials) {
    where.push(`credentials_sealed = ${p.add(also.credentials.expected)}`);
    set.push(`credentials_sealed = ${p.add(also.credentials.sealed)}`);
  }
  return changeWithEvent(db, p, {
    conn,
    set: set.join(', '),
    where: where.join(' AND ') || undefined,
    before: `health->>'status'`,
    type: 'connection.healthChanged',
    changed: `c.health->>'status' IS DISTINCT FROM c.was`,
  });
}

// --- Call rates

/** Takes the next free call slot of the key; answers when that slot is (epoch milliseconds). */
export async function takeCallSlot(db: Queryable, key: string, spacingMs: number): Promise<number> {
  const [row] = await rows<{ slot_ms: string | number }>(
    db,
    `INSERT INTO supplier_call_rates AS r (rate_key, next_at) VALUES ($1, clock_timestamp() + make_interval(secs => $2 / 1000.0))
     ON CONFLICT (rate_key) DO UPDATE SET next_at = greatest(r.next_at, clock_timestamp()) + make_interval(secs => $2 / 1000.0)
     RETURNING extract(epoch FROM next_at) * 1000 - $2 AS slot_ms`,
    [key, spacingMs],
  );
  return Number(row?.slot_ms ?? 0);
}

// --- Supplier order ids under our numbers (for suppliers that cannot look an order up by our number)

export async function rememberOrderNumber(db: Queryable, conn: StoreConnection, orderNumber: string, supplierOrderId: string): Promise<void> {
  await affected(
    db,
    `INSERT INTO supplier_order_numbers (store_id, connection_id, order_number, supplier_order_id) VALUES ($1, $2, $3, $4)
     ON CONFLICT (store_id, connection_id, order_number) DO UPDATE SET supplier_order_id = EXCLUDED.supplier_order_id`,
    [conn.storeId, conn.id, orderNumber, supplierOrderId],
  );
}

export async function recallOrderNumber(db: Queryable, conn: StoreConnection, orderNumber: string): Promise<string | null> {
  const [row] = await rows<{ supplier_order_id: string }>(
    db,
    'SELECT supplier_order_id FROM supplier_order_numbers WHERE store_id = $1 AND connection_id = $2 AND order_number = $3',
    [conn.storeId, conn.id, orderNumber],
  );
  return row?.supplier_order_id ?? null;
}
