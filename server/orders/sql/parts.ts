import type { Actor } from '../../identity/permissions';
import { outboxStep } from '../../events';
import { Params, preparedRows, type Queryable, rows } from '../../platform/db';
import { columnsOf, type Piece, Statement } from '../../platform/statement';
import type { PartMove } from '../types';
import { storeOrderEvent } from './payments';
import { PARTS_SUMMARY, statusFromParts } from './status';

// Order parts and the store order that follows them: the one write of a part's status (`partMove`, pieces another
// domain's statement takes through the orders service), confirmation, and the parts as their events show them.

/** What a part's move answers: the part as written, its status before, and its order's store, number and creating key. */
const MOVED = `g.order_id, g.group_key, g.connection_id, g.status, g.shipment, g.fulfilled_by_store, g.needs_attention, g.updated_at, was.status AS was_status,
  ord.store_id, ord.number AS order_number, ord.created_by_key_id`;

const MOVED_COLUMNS = columnsOf(MOVED);

/** What the relation naming the parts to move must give. */
export const PART_KEYS = ['order_id', 'group_key'] as const;

/**
 * The one write of an order part's status, as pieces of a statement (platform/statement.ts) so that a caller may run
 * it inside its own (a supplier order's change, its part's move, the store order and their events then commit in one
 * round trip: dispatch's `writeChange`). It moves the parts named by the rows of the relation `parts` (giving
 * `order_id` and `group_key`): `part`, the parts as written; `part_event`, the `orderPart.statusChanged` event of each
 * part whose status changed; `part_now`, the parts of their orders as they are now; `order_follow`, each of their store
 * orders (and those of `confirming`, a relation of orders this statement confirms) with its status and
 * needs-attention flag taken from its parts. A part that follows its supplier order is written only when something
 * changes, and never once the store took it over. Every part named is of the store `storeId`: each table is pinned
 * to it (one shard under Citus).
 */
export function partMove(p: Params, storeId: string, parts: string, move: PartMove, confirming?: string): Piece[] {
  const store = `${p.add(storeId)}::uuid`;
  const from = `FROM ${parts} x JOIN fulfilment_groups was ON was.store_id = ${store} AND was.order_id = x.order_id AND was.group_key = x.group_key
               JOIN store_orders ord ON ord.store_id = ${store} AND ord.id = x.order_id
               WHERE g.store_id = ${store} AND g.order_id = x.order_id AND g.group_key = x.group_key`;
  let update: string;
  switch (move.kind) {
    case 'follow': {
      const [status, shipment, attention] = [p.add(move.status), p.json(move.shipment), p.add(move.needsAttention)];
      update = `UPDATE fulfilment_groups g SET status = ${status}, shipment = ${shipment}, needs_attention = ${attention}, updated_at = now()
                  ${from} AND NOT g.fulfilled_by_store
                   AND (g.status IS DISTINCT FROM ${status} OR g.shipment IS DISTINCT FROM ${shipment} OR g.needs_attention IS DISTINCT FROM ${attention})`;
      break;
    }
    case 'handToStore':
      update = `UPDATE fulfilment_groups g SET fulfilled_by_store = true, shipment = NULL, needs_attention = false, updated_at = now(),
                       status = CASE WHEN ord.confirmed_at IS NULL THEN 'pending' ELSE 'processing' END
                  ${from}`;
      break;
    case 'byStore':
      update = `UPDATE fulfilment_groups g SET status = ${p.add(move.status)}, shipment = COALESCE(${p.json(move.shipment)}, g.shipment), updated_at = now()
                  ${from} AND g.fulfilled_by_store AND g.status = ANY(${p.add(move.from)}::text[])`;
  }
  const event = outboxStep({
    from: 'part',
    type: `'orderPart.statusChanged'`,
    storeId: 'part.store_id',
    resourceKey: `'orderPart:' || part.order_id || ':' || part.group_key`,
    recordKeyId: 'part.created_by_key_id',
    snapshot: "to_jsonb(part) - 'needs_attention'",
    where: 'part.status IS DISTINCT FROM part.was_status',
  });
  const confirmingReads = confirming ? { [confirming]: ['order_id'] } : {};
  // The parts as they are now: those this statement moved, and the others of their orders as they were.
  const orders = `SELECT order_id FROM part${confirming ? ` UNION SELECT order_id FROM ${confirming}` : ''}`;
  const confirmed = confirming ? `(s.confirmed_at IS NOT NULL OR s.id IN (SELECT order_id FROM ${confirming}))` : 's.confirmed_at IS NOT NULL';
  const moved = MOVED_COLUMNS;
  return [
    { name: 'part', gives: moved, reads: { [parts]: PART_KEYS }, sql: `${update} RETURNING ${MOVED}` },
    { name: 'part_event', gives: ['*'], reads: { part: moved }, sql: event },
    {
      name: 'part_now',
      gives: ['order_id', 'status', 'needs_attention'],
      reads: { part: ['order_id', 'group_key', 'status', 'needs_attention'], ...confirmingReads },
      sql: `SELECT g.order_id, g.status, g.needs_attention FROM fulfilment_groups g
             WHERE g.store_id = ${store} AND g.order_id IN (${orders}) AND NOT EXISTS (SELECT 1 FROM part m WHERE m.order_id = g.order_id AND m.group_key = g.group_key)
            UNION ALL SELECT order_id, status, needs_attention FROM part`,
    },
    {
      name: 'order_follow',
      gives: ['id', 'store_id', 'created_by_key_id'],
      reads: { part_now: ['order_id', 'status', 'needs_attention'], part: ['order_id'], ...confirmingReads },
      sql: `UPDATE store_orders s SET status = ${statusFromParts('f', confirmed)}, needs_attention = f.attention OR s.payment_attention IS NOT NULL,
                   ${confirming ? `confirmed_at = CASE WHEN s.confirmed_at IS NULL AND s.id IN (SELECT order_id FROM ${confirming}) THEN now() ELSE s.confirmed_at END, ` : ''}updated_at = now()
              FROM (SELECT o.order_id, ${PARTS_SUMMARY} FROM (${orders}) o LEFT JOIN part_now x ON x.order_id = o.order_id GROUP BY o.order_id) f
             WHERE s.store_id = ${store} AND s.id = f.order_id RETURNING s.id, s.store_id, s.created_by_key_id`,
    },
  ];
}

/**
 * Confirms the order and starts its own part (`storePart`, if pending), the order following its parts, with the
 * `storeOrder.confirmed` event other domains react to, in one statement; true when this call confirmed it.
 */
export async function confirmOrder(tx: Queryable, storeId: string, orderId: string, storePart: string, actor: Actor): Promise<boolean> {
  const st = new Statement(new Params());
  const p = st.p;
  st.add({
    name: 'o',
    gives: PART_KEYS,
    reads: {},
    sql: `SELECT id AS order_id, ${p.add(storePart)}::text AS group_key FROM store_orders WHERE store_id = ${p.add(storeId)} AND id = ${p.add(orderId)} AND confirmed_at IS NULL FOR UPDATE`,
  });
  st.add(...partMove(p, storeId, 'o', { kind: 'byStore', status: 'processing', shipment: null, from: ['pending'] }, 'o'));
  st.add({
    name: 'confirmed_event',
    gives: ['*'],
    reads: { order_follow: ['id', 'store_id', 'created_by_key_id'] },
    sql: storeOrderEvent(p, 'order_follow', 'storeOrder.confirmed', actor),
  });
  return (await preparedRows(tx, st.sql('SELECT order_id FROM o', { o: ['order_id'] }), st.values)).length > 0;
}

/**
 * A reroute's items leave their part for another (made pending for `connectionId` if absent), each now ordered as
 * the alternate's supplier variant at its cost; inside the caller's transaction. Answers how many moved.
 */
export async function moveItems(
  tx: Queryable,
  m: {
    storeId: string;
    orderId: string;
    fromKey: string;
    toKey: string;
    connectionId: string;
    items: Array<{ id: string; supplierVariantId: string; linkCostMinor: number; linkCurrency: string }>;
  },
): Promise<number> {
  // The cost the move accepted goes with its currency: one column never holds one currency's units read as another's.
  const [r] = await rows<{ n: number }>(
    tx,
    `WITH g AS (INSERT INTO fulfilment_groups (store_id, order_id, group_key, connection_id, status) VALUES ($8, $1, $3, $4, 'pending') ON CONFLICT (store_id, order_id, group_key) DO NOTHING),
          i AS (UPDATE store_order_items i SET group_key = $3, supplier_variant_id = u.variant, link_cost_minor = u.cost, link_currency = u.currency
                  FROM unnest($5::uuid[], $6::text[], $7::bigint[], $9::text[]) AS u(id, variant, cost, currency)
                 WHERE i.store_id = $8 AND i.order_id = $1 AND i.group_key = $2 AND i.id = u.id RETURNING i.id)
     SELECT count(*)::int AS n FROM i`,
    [
      m.orderId,
      m.fromKey,
      m.toKey,
      m.connectionId,
      m.items.map((x) => x.id),
      m.items.map((x) => x.supplierVariantId),
      m.items.map((x) => x.linkCostMinor),
      m.storeId,
      m.items.map((x) => x.linkCurrency),
    ],
  );
  return r.n;
}

/**
 * A reship's part (a claim the supplier approved for a reship): the claimed items copied into a new part `toKey` for
 * `connectionId`, pending, each with the quantity claimed and no price (the shopper paid once, so no revenue twice);
 * inside the caller's transaction. Made once: a part already there takes nothing. Answers how many items were copied.
 */
export async function reshipItems(
  tx: Queryable,
  m: { storeId: string; orderId: string; fromKey: string; toKey: string; connectionId: string; items: Array<{ id: string; quantity: number }> },
): Promise<number> {
  const [r] = await rows<{ n: number }>(
    tx,
    `WITH g AS (INSERT INTO fulfilment_groups (store_id, order_id, group_key, connection_id, status) VALUES ($1, $2, $4, $5, 'pending') ON CONFLICT (store_id, order_id, group_key) DO NOTHING RETURNING 1),
          top AS (SELECT coalesce(max(position), 0) AS p FROM store_order_items WHERE store_id = $1 AND order_id = $2),
          i AS (INSERT INTO store_order_items (store_id, id, order_id, position, product_id, variant_id, sku, title, product_title, quantity, unit_price_minor, group_key,
                                               supplier_variant_id, link_cost_minor, link_currency, recorded_cost_minor, recorded_currency)
                SELECT o.store_id, gen_random_uuid(), o.order_id, top.p + u.n::int, o.product_id, o.variant_id, o.sku, o.title, o.product_title, u.quantity, 0, $4,
                       o.supplier_variant_id, o.link_cost_minor, o.link_currency, o.recorded_cost_minor, o.recorded_currency
                  FROM unnest($6::uuid[], $7::int[]) WITH ORDINALITY AS u(id, quantity, n)
                  JOIN store_order_items o ON o.store_id = $1 AND o.order_id = $2 AND o.group_key = $3 AND o.id = u.id CROSS JOIN top
                 WHERE EXISTS (SELECT 1 FROM g) RETURNING 1)
     SELECT count(*)::int AS n FROM i`,
    [m.storeId, m.orderId, m.fromKey, m.toKey, m.connectionId, m.items.map((x) => x.id), m.items.map((x) => x.quantity)],
  );
  return r.n;
}

/** `partMove` as a statement of its own, for one part; true when the part moved. */
export async function movePartNow(db: Queryable, storeId: string, orderId: string, partKey: string, move: PartMove): Promise<boolean> {
  const st = new Statement(new Params());
  st.add({ name: 'one', gives: PART_KEYS, reads: {}, sql: `SELECT ${st.p.add(orderId)}::uuid AS order_id, ${st.p.add(partKey)}::text AS group_key` });
  st.add(...partMove(st.p, storeId, 'one', move));
  return (await rows(db, st.sql('SELECT order_id FROM part', { part: ['order_id'] }), st.values)).length > 0;
}

/** Part rows of one store as `partMove` wrote them into events, with their items, for the events' data (the part as the API shows it). */
export async function partsWithItems(db: Queryable, storeId: string, parts: Array<{ order_id: string; group_key: string }>): Promise<Map<string, string[]>> {
  const found = await rows<{ order_id: string; group_key: string; items: string[] }>(
    db,
    `SELECT x.order_id, x.group_key, coalesce(array_agg(i.id ORDER BY i.position) FILTER (WHERE i.id IS NOT NULL), '{}') AS items
       FROM unnest($1::uuid[], $2::text[]) AS x(order_id, group_key) LEFT JOIN store_order_items i ON i.store_id = $3 AND i.order_id = x.order_id AND i.group_key = x.group_key
      GROUP BY x.order_id, x.group_key`,
    [parts.map((t) => t.order_id), parts.map((t) => t.group_key), storeId],
  );
  return new Map(found.map((r) => [`${r.order_id}:${r.group_key}`, r.items]));
}
