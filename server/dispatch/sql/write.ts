import { movePart } from '../../orders';
import { Params, preparedRows, type Queryable } from '../../platform/db';
import { eventStep } from '../events';
import { assertMove } from '../state-machine';
import type { SupplierOrder } from '../supplier-order';
import type { Change } from '../transition';
import { COLUMNS_READ, supplierOrderOf, type SupplierOrderRow } from './rows';

// The one write of a supplier order. Besides its own tables it runs the steps other domains publish for it, in the
// same statement: orders' `movePart` (the part and its store order) and the events' outbox (through ../events.ts).

/** Every change of a supplier order is announced here (in the same statement), for callers waiting on it. */
export const CHANGE_CHANNEL = 'supplier_order_changed';

/** The columns of the fields a change may write, and which hold JSON. */
const COLUMNS: Record<string, string> = {
  reviewReason: 'review_reason', reviewMessage: 'review_message', retryable: 'retryable', supplierOrderId: 'supplier_order_id', supplierStatus: 'supplier_status',
  costs: 'costs', paymentStatus: 'payment_status', shipping: 'shipping', attempt: 'attempt', supplierOrderNumber: 'supplier_order_number',
  numberKnownAbsent: 'number_known_absent', payRequested: 'pay_requested', cancelRequested: 'cancel_requested', storeTakesOver: 'store_takes_over',
  acceptedCostMinor: 'accepted_cost_minor', rerouteRequest: 'reroute_request', rerouteTried: 'reroute_tried', reroutedTo: 'rerouted_to', retriesUsed: 'retries_used', nextRetryAt: 'next_retry_at', paymentDue: 'payment_due', captureRequested: 'capture_requested',
};
const JSON_FIELDS = new Set(['costs', 'shipping', 'rerouteRequest', 'rerouteTried']);
/** A change's guard (./transition.ts `Change.guard`), checked by the same compare and set as its status. */
const GUARD_SQL: Record<Change['guard'][number], string> = { noReroute: 'reroute_request IS NULL', noCancel: 'NOT cancel_requested', reroute: 'reroute_request IS NOT NULL' };

/**
 * The one write of a supplier order, for every change (./transition.ts made `c`): in one statement, the record made
 * or changed by compare and set on its status, its history event, its order part moved (orders' `movePart`), and the
 * notification waiters listen for. The move is checked against the table again here. `alike` names other records
 * that the same change moves in the same statement (each by compare and set, each with its own history and part).
 * Answers the records as written; a record not in `c.from` (or, for a new one, a part that already had one) is not.
 */
export async function writeChange(db: Queryable, c: Change, alike: string[] = []): Promise<SupplierOrder[]> {
  assertMove(c.from, c.to);
  const p = new Params();
  const a = c.after;
  let so: string;
  if (c.from === null) {
    so = `INSERT INTO supplier_orders (id, store_id, order_id, group_key, connection_id, supplier_key, order_number, contract_model, status, supplier_order_number,
                                       payment_status, pay_now, destination, created_by_account_id, created_by_key_id, reroute_tried)
          VALUES (${[a.id, a.storeId, a.orderId, a.groupKey, a.connectionId, a.supplierKey, a.orderNumber, a.contractModel, a.status, a.supplierOrderNumber, a.paymentStatus, a.payNow].map((v) => p.add(v)).join(', ')},
                  ${p.json(a.destination)}, ${p.add(a.createdByAccountId)}, ${p.add(a.createdByKeyId)}, ${p.json(a.rerouteTried)})
          ON CONFLICT (store_id, order_id, group_key) DO NOTHING RETURNING ${COLUMNS_READ}, NULL::text AS from_status`;
  } else {
    const sets = Object.entries(c.fields).map(([key, value]) => {
      if (!COLUMNS[key]) throw new Error(`not a dispatch field: ${key}`);
      return `${COLUMNS[key]} = ${JSON_FIELDS.has(key) ? p.json(value) : p.add(value)}`;
    });
    const from = p.add(c.from);
    const guard = c.guard.map((g) => ` AND ${GUARD_SQL[g]}`).join('');
    so = `UPDATE supplier_orders SET status = ${p.add(c.to)}, updated_at = now()${sets.map((x) => `, ${x}`).join('')}
           WHERE store_id = ${p.add(a.storeId)} AND id = ANY(${p.add([c.id, ...alike])}::uuid[]) AND status = ${from}${guard} RETURNING ${COLUMNS_READ}, ${from}::text AS from_status`;
  }
  const h = c.history;
  const changed = await preparedRows<SupplierOrderRow>(
    db,
    `WITH so AS (${so}),
     ev AS (INSERT INTO supplier_order_events (store_id, supplier_order_id, actor_kind, actor_id, type, from_status, to_status, details)
            SELECT store_id, id, ${p.add(h.actor.kind)}, ${p.add(h.actor.id)}, ${p.add(h.type)}, from_status, status, ${p.json(h.details)} FROM so RETURNING id, supplier_order_id)
     ${eventStep(p, c)} ${c.part ? `, ${movePart(p, a.storeId, 'so', c.part)}` : ''}
     SELECT ${COLUMNS_READ}, pg_notify('${CHANGE_CHANNEL}', id::text) AS notified FROM so`,
    p.values,
  );
  return changed.map(supplierOrderOf);
}
