import type { PartMoves } from '../../orders';
import { Params, preparedRows, type Queryable } from '../../platform/db';
import { columnsOf, Statement } from '../../platform/statement';
import { eventPiece } from '../events';
import { assertMove } from '../state-machine';
import { landedPieces } from './landed';
import { cancelRefundPiece } from './credits';
import type { SupplierOrder } from '../supplier-order';
import type { Carried } from '../carry';
import type { Change } from '../change';
import { COLUMN_NAMES, COLUMNS_READ, supplierOrderOf, type SupplierOrderRow } from './rows';

// The one write of a supplier order. Besides its own tables it takes pieces other domains build for it, in the same
// statement (platform/statement.ts names each and what it reads): orders' part move (the part and its store order,
// through the orders service) and the events' outbox (through ../events.ts).

/** Every change of a supplier order is announced here (in the same statement), for callers waiting on it. */
export const CHANGE_CHANNEL = 'supplier_order_changed';

/** The columns of the fields a change may write, and which hold JSON. */
const COLUMNS: Record<string, string> = {
  reviewReason: 'review_reason',
  reviewMessage: 'review_message',
  retryable: 'retryable',
  supplierOrderId: 'supplier_order_id',
  supplierStatus: 'supplier_status',
  costs: 'costs',
  paymentStatus: 'payment_status',
  shipping: 'shipping',
  attempt: 'attempt',
  supplierOrderNumber: 'supplier_order_number',
  numberKnownAbsent: 'number_known_absent',
  payRequested: 'pay_requested',
  cancelRequested: 'cancel_requested',
  storeTakesOver: 'store_takes_over',
  acceptedCostMinor: 'accepted_cost_minor',
  rerouteRequest: 'reroute_request',
  rerouteTried: 'reroute_tried',
  reroutedTo: 'rerouted_to',
  returns: 'returns',
  retriesUsed: 'retries_used',
  nextRetryAt: 'next_retry_at',
  paymentDue: 'payment_due',
  captureRequested: 'capture_requested',
  routing: 'routing',
  earlier: 'earlier',
  delivery: 'delivery',
  deliveryDueAt: 'delivery_due_at',
};
const JSON_FIELDS = new Set(['costs', 'shipping', 'rerouteRequest', 'rerouteTried', 'returns', 'routing', 'earlier', 'delivery']);
/** A change's guard (../change.ts `Change.guard`), checked by the same compare and set as its status. */
const GUARD_SQL: Record<Change['guard'][number], string> = {
  noReroute: 'reroute_request IS NULL',
  noCancel: 'NOT cancel_requested',
  reroute: 'reroute_request IS NOT NULL',
};

/** The columns `so`, the record as written, gives to the other pieces. */
const SO_GIVES = [...columnsOf(COLUMN_NAMES), 'from_status'];

/**
 * The one write of a supplier order, for every change (../transition.ts made `c`): in one statement, the record made
 * or changed by compare and set on its status, its history event, its order part moved (`parts`, orders' service),
 * and the notification waiters listen for. The move is checked against the table again here. `alike` names other records
 * that the same change moves in the same statement (each by compare and set, each with its own history and part).
 * Answers the records as written; a record not in `c.from` (or, for a new one, a part that already had one) is not.
 */
export async function writeChange(db: Queryable, c: Carried, parts: PartMoves, alike: string[] = []): Promise<SupplierOrder[]> {
  assertMove(c.from, c.to);
  const st = new Statement(new Params());
  const p = st.p;
  const a = c.after;
  let so: string;
  if (c.from === null) {
    so = `INSERT INTO supplier_orders (id, store_id, order_id, group_key, connection_id, supplier_key, order_number, contract_model, status, supplier_order_number,
                                       payment_status, pay_now, destination, created_by_account_id, created_by_key_id, reroute_tried, routing, earlier${a.reshipOf ? ', reship_of' : ''})
          VALUES (${[a.id, a.storeId, a.orderId, a.partKey, a.connectionId, a.supplierKey, a.orderNumber, a.contractModel, a.status, a.supplierOrderNumber, a.paymentStatus, a.payNow].map((v) => p.add(v)).join(', ')},
                  ${p.json(a.destination)}, ${p.add(a.createdByAccountId)}, ${p.add(a.createdByKeyId)}, ${p.json(a.rerouteTried)}, ${p.json(a.routing)}, ${p.json(a.earlier.length ? a.earlier : null)}${a.reshipOf ? `, ${p.json(a.reshipOf)}` : ''})
          ON CONFLICT (store_id, order_id, group_key) DO NOTHING RETURNING ${COLUMNS_READ}, NULL::text AS from_status`;
  } else {
    const sets = Object.entries(c.fields).map(([key, value]) => {
      if (!COLUMNS[key]) throw new Error(`not a dispatch field: ${key}`);
      return `${COLUMNS[key]} = ${JSON_FIELDS.has(key) ? p.json(value) : p.add(value)}`;
    });
    // The list's filter follows the delivery watch's attention (../delivery/), written with it.
    if ('delivery' in c.fields) sets.push(`needs_attention = ${p.add(!!c.fields.delivery?.attention)}`);
    const from = p.add(c.from);
    // One record by equality: Postgres then plans the statement once per connection (its generic plan costs what a
    // fresh one does), instead of planning its many pieces again at every write because an array's length is unknown.
    const ids = alike.length ? `id = ANY(${p.add([c.id, ...alike])}::uuid[])` : `id = ${p.add(c.id)}::uuid`;
    const guard =
      c.guard.map((g) => ` AND ${GUARD_SQL[g]}`).join('') + (c.deliveryWas !== undefined ? ` AND delivery IS NOT DISTINCT FROM ${p.json(c.deliveryWas)}` : '');
    so = `UPDATE supplier_orders SET status = ${p.add(c.to)}, updated_at = now()${sets.map((x) => `, ${x}`).join('')}
           WHERE store_id = ${p.add(a.storeId)} AND ${ids} AND status = ${from}${guard} RETURNING ${COLUMNS_READ}, ${from}::text AS from_status`;
  }
  const h = c.history;
  st.add({ name: 'so', gives: SO_GIVES, reads: {}, sql: so });
  const r = c.routed;
  if (r) {
    // Routing's choice carried by this change (../carry.ts): its entry first, the status as it was.
    st.add({
      name: 'ev_routed',
      gives: ['id', 'supplier_order_id'],
      reads: { so: ['store_id', 'id', 'from_status'] },
      sql: `INSERT INTO supplier_order_events (store_id, supplier_order_id, actor_kind, actor_id, type, from_status, to_status, details)
            SELECT store_id, id, ${p.add(r.actor.kind)}, ${p.add(r.actor.id)}, ${p.add(r.type)}, from_status, from_status, ${p.json(r.details)} FROM so RETURNING id, supplier_order_id`,
    });
  }
  st.add({
    name: 'ev',
    gives: ['id', 'supplier_order_id'],
    reads: { so: ['store_id', 'id', 'from_status', 'status'], ...(r ? { ev_routed: [] } : {}) },
    // Reading ev_routed makes its entry (and its id) come first.
    sql: `INSERT INTO supplier_order_events (store_id, supplier_order_id, actor_kind, actor_id, type, from_status, to_status, details)
          SELECT store_id, id, ${p.add(h.actor.kind)}, ${p.add(h.actor.id)}, ${p.add(h.type)}, from_status, status, ${p.json(h.details)} FROM so${r ? ' WHERE (SELECT count(*) FROM ev_routed) >= 0' : ''} RETURNING id, supplier_order_id`,
  });
  const event = eventPiece(p, c);
  if (event) st.add(event);
  if (c.part) st.add(...parts.pieces(p, a.storeId, 'so', c.part));
  st.add(...landedPieces(p, a.storeId, c.landed, parts, { cancelled: c.to === 'cancelled' && c.from !== 'cancelled' }));
  // The supplier refunded a paid order it cancelled: its supplier credit, with this change (./credits.ts).
  if (c.fields.paymentStatus === 'refunded') st.add(cancelRefundPiece(p, a.storeId));
  const changed = await preparedRows<SupplierOrderRow>(
    db,
    st.sql(`SELECT ${COLUMN_NAMES}, pg_notify('${CHANGE_CHANNEL}', id::text) AS notified FROM so`, { so: SO_GIVES }),
    st.values,
  );
  return changed.map(supplierOrderOf);
}
