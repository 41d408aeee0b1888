import { outboxStep } from '../../events';
import { type Params, type Queryable, rows } from '../../platform/db';
import type { Piece } from '../../platform/statement';

/**
 * The `storeOrder.profitChanged` event for each row of `moved` (store_id, order_id, data), as a piece of the caller's
 * statement; recorded for the store order's creating key, as its other events are.
 */
export function profitChangedPieces(p: Params, storeId: string, moved: string): Piece[] {
  const store = p.add(storeId);
  return [
    {
      name: 'profit_event',
      gives: ['*'],
      reads: { [moved]: ['store_id', 'order_id', 'data'] },
      sql: outboxStep({
        from: `${moved} m JOIN store_orders o ON o.store_id = ${store}::uuid AND o.id = m.order_id`,
        type: `'storeOrder.profitChanged'`,
        storeId: 'm.store_id',
        resourceKey: `'storeOrder:' || m.order_id`,
        recordKeyId: 'o.created_by_key_id',
        snapshot: 'm.data',
      }),
    },
  ];
}

/** The groupings the profit report keeps sums by, of a delta `x`; each part counts once in each (a day's row also takes the fees). */
export const GROUPINGS = (x: string) =>
  `(VALUES ('day', ${DAY_KEY(x)}, ${x}.day::text), ('product', ${x}.product_key, ${x}.product_label), ('connection', ${x}.connection_id::text, ''))`;
/** A delta's day key: none for a product's share of a part (`split`), which counts in the product grouping only. */
export const DAY_KEY = (x: string) => `CASE WHEN ${x}.split THEN NULL ELSE ${x}.day::text END`;

/** A part's products (items that have one), each weighed by its items' prices, as lateral `sp` (for `shareOf`). */
const productsOf = (store: string, order: string, part: string) => `CROSS JOIN LATERAL (
    SELECT q.product_key, q.product_label, q.weight, sum(q.weight) OVER (ORDER BY q.product_key) AS cum, sum(q.weight) OVER () AS total, row_number() OVER (ORDER BY q.product_key) AS n
      FROM (SELECT i.product_id::text AS product_key, max(coalesce(i.product_title, i.title)) AS product_label, sum(i.unit_price_minor * i.quantity) AS weight
              FROM store_order_items i WHERE i.store_id = ${store}::uuid AND i.order_id = ${order} AND i.group_key = ${part} AND i.product_id IS NOT NULL GROUP BY i.product_id) q) sp`;
/** Product `sp`'s share of `amount` by its items' prices, rounded cumulatively: the shares add up to the amount exactly. */
const shareOf = (amount: string) => `(CASE WHEN sp.total = 0 THEN (CASE WHEN sp.n = 1 THEN ${amount} ELSE 0 END)
    ELSE round(${amount}::numeric * sp.cum / sp.total) - round(${amount}::numeric * (sp.cum - sp.weight) / sp.total) END)::bigint`;

/**
 * The deltas of the rows of `src` (a part's change each: store_id, order_id, group_key, day, connection_id, first,
 * parts, revenue_minor, landed_minor, credit_minor, incomplete): the part's own row, counted by day and connection, and
 * one row per product of its items with that product's share, counted by product (docs/decisions.md, "A part of
 * several products"). Rows that change nothing are not written.
 */
function deltaRows(store: string, src: string): string {
  const changes = `(x.first OR x.parts <> 0 OR x.revenue_minor <> 0 OR x.landed_minor <> 0 OR x.credit_minor <> 0 OR x.incomplete <> 0)`;
  return `INSERT INTO profit_deltas (store_id, order_id, day, product_key, product_label, connection_id, entered, parts, revenue_minor, landed_cost_minor, supplier_credit_minor, incomplete_parts, split)
          SELECT x.store_id, x.order_id, x.day, NULL, NULL, x.connection_id, x.first, x.parts, x.revenue_minor, x.landed_minor, x.credit_minor, x.incomplete, false FROM ${src} x WHERE ${changes}
          UNION ALL
          SELECT x.store_id, x.order_id, x.day, sp.product_key, sp.product_label, NULL, x.first, x.parts, ${shareOf('x.revenue_minor')}, ${shareOf('x.landed_minor')}, ${shareOf('x.credit_minor')}, x.incomplete, true
            FROM ${src} x ${productsOf(store, 'x.order_id', 'x.group_key')} WHERE ${changes}
          RETURNING store_id`;
}

/** What the relation `moved` of `profitSumPieces` gives, one row a part (dispatch's landed costs write it). */
export const PROFIT_SUM_COLUMNS = [
  'store_id',
  'order_id',
  'group_key',
  'connection_id',
  'stage',
  'landed_minor',
  'credit_minor',
  'store_currency',
  'previous_stage',
  'previous_landed_minor',
  'gone',
] as const;

/**
 * What each part of `moved` whose latest landed cost stage this statement recorded changes in the profit report's sums
 * (docs/decisions.md, "The profit report"): on its first stage the part enters with its revenue and counts
 * incomplete; a later stage replaces the previous stage's cost (the difference) and, once the supplier accepted, the
 * part is complete; a part cancelled leaves the sums (its order stays counted). A part priced in another currency than
 * the store's enters with no amounts and stays incomplete. The day is the store order's (UTC); by product, a part
 * counts under each product of its items, with that product's share (`deltaRows`).
 * Appended to profit_deltas, one row per part: no two parts' writes touch the same row (a kept sum per store and day
 * was a row every write of the store waited on); the workers fold the rows into profit_sums (`foldProfitDeltas`).
 */
export function profitSumPieces(p: Params, storeId: string, moved: string): Piece[] {
  const store = p.add(storeId);
  const part: Piece = {
    name: 'ps_part',
    gives: ['store_id', 'order_id', 'group_key', 'day', 'connection_id', 'first', 'revenue_minor', 'landed_minor', 'credit_minor', 'incomplete', 'parts'],
    reads: { [moved]: [...PROFIT_SUM_COLUMNS] },
    // A part cancelled (gone) takes back what the sums hold of it (its stages before this statement); one that
    // entered and left in the same statement never counted.
    sql: `SELECT m.store_id, m.order_id, m.group_key, (o.created_at AT TIME ZONE 'UTC')::date AS day, m.connection_id, m.previous_stage IS NULL AND NOT m.gone AS first,
                 CASE WHEN m.gone THEN (CASE WHEN m.previous_stage IS NOT NULL AND c.same THEN -it.revenue_minor ELSE 0 END)
                      WHEN m.previous_stage IS NULL AND c.same THEN it.revenue_minor ELSE 0 END AS revenue_minor,
                 CASE WHEN m.gone THEN (CASE WHEN c.same THEN -coalesce(m.previous_landed_minor, 0) + m.credit_minor ELSE 0 END)
                      WHEN c.same THEN m.landed_minor - coalesce(m.previous_landed_minor, 0) ELSE 0 END AS landed_minor,
                 CASE WHEN m.gone AND c.same THEN -m.credit_minor ELSE 0 END AS credit_minor,
                 CASE WHEN m.gone THEN (CASE WHEN m.previous_stage IS NOT NULL AND (NOT c.same OR m.previous_stage = 'confirmation') THEN -1 ELSE 0 END)
                      WHEN m.previous_stage IS NULL THEN (CASE WHEN NOT c.same OR m.stage = 'confirmation' THEN 1 ELSE 0 END)
                      WHEN c.same AND m.previous_stage = 'confirmation' AND m.stage <> 'confirmation' THEN -1 ELSE 0 END AS incomplete,
                 CASE WHEN m.gone AND m.previous_stage IS NOT NULL THEN -1 WHEN m.previous_stage IS NULL AND NOT m.gone THEN 1 ELSE 0 END AS parts
            FROM ${moved} m JOIN store_orders o ON o.store_id = ${store}::uuid AND o.id = m.order_id
            CROSS JOIN LATERAL (SELECT trim(o.currency) = m.store_currency AS same) c
            CROSS JOIN LATERAL (SELECT coalesce(sum(i.unit_price_minor * i.quantity), 0) AS revenue_minor
                                  FROM store_order_items i WHERE i.store_id = ${store}::uuid AND i.order_id = m.order_id AND i.group_key = m.group_key) it`,
  };
  const delta: Piece = {
    name: 'ps_delta',
    gives: ['*'],
    reads: {
      ps_part: ['store_id', 'order_id', 'group_key', 'day', 'connection_id', 'first', 'revenue_minor', 'landed_minor', 'credit_minor', 'incomplete', 'parts'],
    },
    sql: deltaRows(store, 'ps_part'),
  };
  return [part, delta];
}

/**
 * Folds a store's deltas into its kept sums, in one statement: the rows are taken (deleted, so each is folded once,
 * whoever else folds at the same time), each order entering a key is counted once there (profit_order_keys), and each
 * (grouping, key, day) is added to, in key order (two folds lock the sums' rows in the same order). Answers the rows folded.
 */
export async function foldProfitDeltas(db: Queryable, storeId: string): Promise<number> {
  const [r] = await rows<{ folded: number }>(
    db,
    `WITH d AS (DELETE FROM profit_deltas WHERE store_id = $1 RETURNING *),
          x AS (SELECT d.store_id, d.order_id, d.day, d.entered, d.parts, d.revenue_minor, d.landed_cost_minor, d.payment_fee_minor, d.supplier_credit_minor, d.incomplete_parts, g.grouping, g.key, g.label
                  FROM d CROSS JOIN LATERAL ${GROUPINGS('d')} AS g(grouping, key, label) WHERE g.key IS NOT NULL),
          k AS (INSERT INTO profit_order_keys (store_id, order_id, grouping, key)
                SELECT DISTINCT x.store_id, x.order_id, x.grouping, x.key FROM x WHERE x.entered
                ON CONFLICT DO NOTHING RETURNING order_id, grouping, key),
          s AS (INSERT INTO profit_sums AS s (store_id, grouping, key, day, label, orders, parts, revenue_minor, landed_cost_minor, payment_fee_minor, supplier_credit_minor, incomplete_parts)
                SELECT x.store_id, x.grouping, x.key, x.day, coalesce(max(x.label) FILTER (WHERE x.label <> ''), ''),
                       count(DISTINCT x.order_id) FILTER (WHERE x.entered AND EXISTS (SELECT 1 FROM k WHERE k.order_id = x.order_id AND k.grouping = x.grouping AND k.key = x.key)),
                       sum(x.parts), sum(x.revenue_minor), sum(x.landed_cost_minor), sum(x.payment_fee_minor), sum(x.supplier_credit_minor), sum(x.incomplete_parts)
                  FROM x GROUP BY x.store_id, x.grouping, x.key, x.day ORDER BY x.grouping, x.key, x.day
                ON CONFLICT (store_id, grouping, key, day) DO UPDATE SET orders = s.orders + EXCLUDED.orders, parts = s.parts + EXCLUDED.parts,
                   revenue_minor = s.revenue_minor + EXCLUDED.revenue_minor, landed_cost_minor = s.landed_cost_minor + EXCLUDED.landed_cost_minor,
                   payment_fee_minor = s.payment_fee_minor + EXCLUDED.payment_fee_minor, supplier_credit_minor = s.supplier_credit_minor + EXCLUDED.supplier_credit_minor, incomplete_parts = s.incomplete_parts + EXCLUDED.incomplete_parts,
                   label = CASE WHEN EXCLUDED.label <> '' THEN EXCLUDED.label ELSE s.label END
                RETURNING 1)
     SELECT (SELECT count(*) FROM d)::int AS folded, (SELECT count(*) FROM s)::int AS sums`,
    [storeId],
  );
  return r.folded;
}

/** The stores with deltas to fold (a sweep over every store: docs/scaling.md, "Allowed cross-store statements"). */
export async function storesWithProfitDeltas(db: Queryable, limit: number): Promise<string[]> {
  const found = await rows<{ store_id: string }>(db, 'SELECT /* cross-store: profit-fold */ DISTINCT store_id FROM profit_deltas LIMIT $1', [limit]);
  return found.map((r) => r.store_id);
}

/**
 * A supplier credit that counts (../../dispatch/sql/credits.ts decides when) comes off its part's landed cost in the
 * sums: its deltas (landed cost less the credit, the credit as its own figure), inside the caller's transaction.
 */
export async function creditDeltas(
  tx: Queryable,
  c: { storeId: string; orderId: string; partKey: string; connectionId: string; amountMinor: number },
): Promise<void> {
  await rows(
    tx,
    `WITH c AS (SELECT o.store_id, o.id AS order_id, $3::text AS group_key, (o.created_at AT TIME ZONE 'UTC')::date AS day, $4::uuid AS connection_id, false AS first,
                       0 AS parts, 0::bigint AS revenue_minor, -$5::bigint AS landed_minor, $5::bigint AS credit_minor, 0 AS incomplete
                  FROM store_orders o WHERE o.store_id = $1 AND o.id = $2),
          d AS (${deltaRows('$1', 'c')})
     SELECT count(*)::int AS n FROM d`,
    [c.storeId, c.orderId, c.partKey, c.connectionId, c.amountMinor],
  );
}
