import { countSlots } from './count-slots';

const KEYS = 'store_id, connection_id, status, contract_model';

/** The row trigger of supplier_order_counts (migration Orders): each record counted in `slot` (or in the one row, without). */
function track(slot: string | null): string {
  const cols = slot === null ? KEYS : `${KEYS}, slot`;
  const upsert = (row: 'OLD' | 'NEW', d: string) => `
          INSERT INTO supplier_order_counts AS c (${cols}, n)
          VALUES (${row}.store_id, ${row}.connection_id, ${row}.status, ${row}.contract_model${slot === null ? '' : `, ${slot.replace(/ROW/g, row)}`}, ${d})
          ON CONFLICT (${cols}) DO UPDATE SET n = c.n + excluded.n;`;
  return `
      CREATE OR REPLACE FUNCTION supplier_order_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN ${upsert('OLD', '-1')}
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN ${upsert('NEW', '1')}
        END IF;
        RETURN NULL;
      END $$;`;
}

/**
 * The supplier order list's counts spread over 64 rows per filter combination (a slot from the record's id): every
 * status change of a connection's orders updated one row, so concurrent dispatch writes waited on each other's lock.
 * The list sums the matching rows, whatever their slot. A record adds and removes itself in its own slot (an upsert
 * both ways, so counts kept in slot 0 before stay right).
 */
export const SupplierOrderCountSlots1764460800260 = countSlots('SupplierOrderCountSlots1764460800260', 'supplier_order_counts', KEYS, 'hashtext(ROW.id::text) & 63', (slot) => track(slot || null));
