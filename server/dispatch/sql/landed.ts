import type { PartMoves } from '../../orders';
import type { Params } from '../../platform/db';
import type { Piece } from '../../platform/statement';
import type { LandedCost } from '../landed';

// A part's landed costs (landed_costs, one row per stage): written as pieces of the change's one statement
// (./write.ts), with the history entry of a stage that moved from the one before, and the data of its
// `storeOrder.profitChanged` event (written by the orders domain's piece, through `PartMoves`).

const STAGE_RANK = `ARRAY['confirmation', 'accepted', 'paid']`;
const LC_GIVES = [
  'store_id',
  'supplier_order_id',
  'order_id',
  'connection_id',
  'stage',
  'currency',
  'items_minor',
  'shipping_minor',
  'total_minor',
  'store_currency',
  'store_total_minor',
  'rate',
  'rate_source',
  'rate_as_of',
];
const COLUMNS = LC_GIVES.join(', ');

/**
 * The stages `landed` records for the record written (`so`), each once (a stage already recorded stays as it was);
 * then, for each new stage whose cost differs from the stage before it (its total in the supplier's currency, or in
 * the store's), a `landedCostChanged` history entry and a `storeOrder.profitChanged` event. A stage before it without a
 * shipping quote (`shipping_minor` null) is not compared: its total was never the whole landed cost.
 */
export function landedPieces(
  p: Params,
  storeId: string,
  landed: LandedCost[],
  parts: Pick<PartMoves, 'profitChanged' | 'profitSums' | 'profitSumColumns'>,
  opts: { cancelled?: boolean } = {},
): Piece[] {
  if (!landed.length) return opts.cancelled ? profitSumPieces(p, storeId, false, parts) : [];
  const store = p.add(storeId);
  const rowsJson = p.json(
    landed.map((l) => ({
      stage: l.stage,
      currency: l.currency,
      items_minor: l.itemsMinor,
      shipping_minor: l.shippingMinor,
      total_minor: l.totalMinor,
      store_currency: l.storeCurrency,
      store_total_minor: l.storeTotalMinor,
      rate: l.rate,
      rate_source: l.rateSource,
      rate_as_of: l.rateAsOf,
    })),
  );
  const lc: Piece = {
    name: 'lc',
    gives: LC_GIVES,
    reads: { so: ['store_id', 'id', 'order_id', 'connection_id'] },
    sql: `INSERT INTO landed_costs (${COLUMNS})
          SELECT so.store_id, so.id, so.order_id, so.connection_id, x.stage, x.currency, x.items_minor, x.shipping_minor, x.total_minor, x.store_currency, x.store_total_minor, x.rate, x.rate_source, x.rate_as_of
            FROM so CROSS JOIN jsonb_to_recordset(${rowsJson}::jsonb) AS x(stage text, currency text, items_minor bigint, shipping_minor bigint, total_minor bigint, store_currency text,
                                                                            store_total_minor bigint, rate text, rate_source text, rate_as_of date)
          ON CONFLICT (store_id, supplier_order_id, stage) DO NOTHING RETURNING ${COLUMNS}`,
  };
  const moved: Piece = {
    name: 'lc_moved',
    gives: ['store_id', 'supplier_order_id', 'order_id', 'connection_id', 'details'],
    reads: { lc: LC_GIVES },
    // The stage before: recorded earlier (the table) or by this same statement (lc: a statement does not see its own inserts).
    sql: `SELECT n.store_id, n.supplier_order_id, n.order_id, n.connection_id,
                 jsonb_build_object('stage', n.stage, 'previousStage', b.stage, 'storeCurrency', n.store_currency, 'storeTotalMinor', n.store_total_minor,
                   'previousStoreTotalMinor', b.store_total_minor, 'differenceMinor', n.store_total_minor - b.store_total_minor, 'currency', n.currency,
                   'totalMinor', n.total_minor, 'previousCurrency', b.currency, 'previousTotalMinor', b.total_minor, 'rate', n.rate, 'previousRate', b.rate,
                   'rateSource', n.rate_source, 'rateAsOf', n.rate_as_of, 'previousRateAsOf', b.rate_as_of) AS details
            FROM lc n
            CROSS JOIN LATERAL (
              SELECT x.stage, x.currency, x.shipping_minor, x.total_minor, x.store_total_minor, x.rate, x.rate_as_of FROM (SELECT stage, currency, shipping_minor, total_minor, store_total_minor, rate, rate_as_of FROM lc l WHERE l.supplier_order_id = n.supplier_order_id
                               UNION ALL
                               SELECT stage, currency, shipping_minor, total_minor, store_total_minor, rate, rate_as_of FROM landed_costs t WHERE t.store_id = ${store}::uuid AND t.supplier_order_id = n.supplier_order_id) x
               WHERE array_position(${STAGE_RANK}, x.stage) < array_position(${STAGE_RANK}, n.stage)
               ORDER BY array_position(${STAGE_RANK}, x.stage) DESC LIMIT 1) b
           WHERE b.shipping_minor IS NOT NULL AND (n.store_total_minor <> b.store_total_minor OR n.total_minor <> b.total_minor OR n.currency <> b.currency)`,
  };
  const history: Piece = {
    name: 'lc_history',
    gives: ['*'],
    reads: { lc_moved: ['store_id', 'supplier_order_id', 'details'], so: ['id', 'status'] },
    sql: `INSERT INTO supplier_order_events (store_id, supplier_order_id, actor_kind, actor_id, type, from_status, to_status, details)
          SELECT m.store_id, m.supplier_order_id, 'system', NULL, 'landedCostChanged', so.status, so.status, m.details FROM lc_moved m JOIN so ON so.id = m.supplier_order_id RETURNING id`,
  };
  // The event's data; the orders domain writes `storeOrder.profitChanged` (its resource) from it, in the same statement.
  const data: Piece = {
    name: 'lc_data',
    gives: ['store_id', 'order_id', 'data'],
    reads: { lc_moved: ['store_id', 'supplier_order_id', 'order_id', 'connection_id', 'details'], so: ['id', 'group_key', 'order_number'] },
    sql: `SELECT m.store_id, m.order_id, jsonb_build_object('orderId', m.order_id, 'orderNumber', so.order_number, 'supplierOrderId', m.supplier_order_id, 'fulfilmentGroupKey', so.group_key,
                   'connectionId', m.connection_id) || m.details AS data
            FROM lc_moved m JOIN so ON so.id = m.supplier_order_id`,
  };
  return [lc, moved, history, data, ...parts.profitChanged(p, storeId, 'lc_data'), ...profitSumPieces(p, storeId, true, parts)];
}

/**
 * For the profit report's kept sums (the orders domain's): each part whose latest landed cost stage this statement
 * recorded (`recorded`: the `lc` piece is there), with that stage's cost and the one it replaces (recorded before), so
 * the sums take the difference, once; and a part this statement cancelled (`gone`), whose sums are taken back.
 */
function profitSumPieces(p: Params, storeId: string, recorded: boolean, parts: Pick<PartMoves, 'profitSums' | 'profitSumColumns'>): Piece[] {
  const store = p.add(storeId);
  const latest = (from: string) =>
    `SELECT x.stage, x.store_total_minor, x.store_currency FROM (${from}) x ORDER BY array_position(${STAGE_RANK}, x.stage) DESC LIMIT 1`;
  const before = `SELECT stage, store_total_minor, store_currency FROM landed_costs t WHERE t.store_id = ${store}::uuid AND t.supplier_order_id = so.id`;
  const now = recorded ? `SELECT stage, store_total_minor, store_currency FROM lc WHERE lc.supplier_order_id = so.id UNION ALL ${before}` : before;
  const gone = `so.status = 'cancelled' AND so.from_status IS DISTINCT FROM 'cancelled'`;
  const sum: Piece = {
    name: 'lc_sum',
    gives: ['supplier_order_id', ...parts.profitSumColumns],
    reads: {
      ...(recorded ? { lc: ['supplier_order_id', 'stage', 'store_total_minor', 'store_currency'] } : {}),
      so: ['store_id', 'id', 'order_id', 'group_key', 'connection_id', 'status', 'from_status'],
    },
    sql: `SELECT so.store_id, so.id AS supplier_order_id, so.order_id, so.group_key, so.connection_id, n.stage, n.store_total_minor AS landed_minor, n.store_currency,
                 b.stage AS previous_stage, b.store_total_minor AS previous_landed_minor, ${gone} AS gone,
                 -- The supplier credits that came off its landed cost (./credits.ts): a part that leaves takes them back too.
                 (SELECT coalesce(sum(k.store_amount_minor), 0) FROM supplier_credits k WHERE k.store_id = so.store_id AND k.supplier_order_id = so.id AND k.counted) AS credit_minor
            FROM so
            CROSS JOIN LATERAL (${latest(now)}) n
            LEFT JOIN LATERAL (${latest(before)}) b ON true
           WHERE ${recorded ? `EXISTS (SELECT 1 FROM lc WHERE lc.supplier_order_id = so.id) OR ` : ''}(${gone})`,
  };
  return [sum, ...parts.profitSums(p, storeId, 'lc_sum')];
}
