import { countSlots } from './count-slots';

const KEYS = 'store_id, status, needs_attention, key_id';
const ROW = `store_id, status, needs_attention, coalesce(created_by_key_id, '00000000-0000-0000-0000-000000000000')`;

/** The counts trigger functions of store_orders (migration ListCounts), each row counted in `slot`. */
function functions(slot: string): string {
  const cols = slot ? `${KEYS}, slot` : KEYS;
  const delta = (rows: string, sign: string) => `SELECT ${ROW}${slot ? `, ${slot}` : ''}, ${sign} AS d FROM ${rows}`;
  const apply = (source: string) => `
      INSERT INTO store_order_counts AS c (${cols}, n)
      SELECT ${cols}, sum(d) FROM (${source}) x(${cols}, d)
       GROUP BY ${cols} HAVING sum(d) <> 0 ORDER BY ${cols}
      ON CONFLICT (${cols}) DO UPDATE SET n = c.n + excluded.n;`;
  return `
    CREATE OR REPLACE FUNCTION store_order_counts_ins() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${apply(delta('new_rows', '1'))} RETURN NULL; END $$;
    CREATE OR REPLACE FUNCTION store_order_counts_del() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${apply(delta('old_rows', '-1'))} RETURN NULL; END $$;
    CREATE OR REPLACE FUNCTION store_order_counts_upd() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${apply(`${delta('new_rows', '1')} UNION ALL ${delta('old_rows', '-1')}`)} RETURN NULL; END $$;`;
}

/**
 * The store order list's counts spread over 64 rows per filter combination (a slot from the order's id): every
 * confirmation or part change of a store's orders updated the same row, so concurrent confirmations and dispatch
 * writes waited on each other's lock. The list sums the matching rows, whatever their slot.
 */
export const StoreOrderCountSlots1764460800261 = countSlots('StoreOrderCountSlots1764460800261', 'store_order_counts', KEYS, 'hashtext(id::text) & 63', functions);
