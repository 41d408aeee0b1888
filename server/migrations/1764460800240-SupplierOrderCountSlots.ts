import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The supplier order list's counts spread over 64 rows per filter combination (a slot from the record's id): every
 * status change of a connection's orders updated one row, so concurrent dispatch writes waited on each other's lock.
 * The list sums the matching rows, whatever their slot. A record adds and removes itself in its own slot (an upsert
 * both ways, so counts kept in slot 0 before stay right).
 */
export class SupplierOrderCountSlots1764460800240 implements MigrationInterface {
  name = 'SupplierOrderCountSlots1764460800240';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE supplier_order_counts ADD COLUMN slot smallint NOT NULL DEFAULT 0;
      ALTER TABLE supplier_order_counts DROP CONSTRAINT supplier_order_counts_pkey, ADD PRIMARY KEY (store_id, connection_id, status, contract_model, slot);
      CREATE OR REPLACE FUNCTION supplier_order_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          INSERT INTO supplier_order_counts AS c (store_id, connection_id, status, contract_model, slot, n)
          VALUES (OLD.store_id, OLD.connection_id, OLD.status, OLD.contract_model, hashtext(OLD.id::text) & 63, -1)
          ON CONFLICT (store_id, connection_id, status, contract_model, slot) DO UPDATE SET n = c.n - 1;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          INSERT INTO supplier_order_counts AS c (store_id, connection_id, status, contract_model, slot, n)
          VALUES (NEW.store_id, NEW.connection_id, NEW.status, NEW.contract_model, hashtext(NEW.id::text) & 63, 1)
          ON CONFLICT (store_id, connection_id, status, contract_model, slot) DO UPDATE SET n = c.n + 1;
        END IF;
        RETURN NULL;
      END $$;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TEMP TABLE merged ON COMMIT DROP AS SELECT store_id, connection_id, status, contract_model, sum(n) AS n FROM supplier_order_counts GROUP BY 1, 2, 3, 4;
      DELETE FROM supplier_order_counts;
      ALTER TABLE supplier_order_counts DROP CONSTRAINT supplier_order_counts_pkey, DROP COLUMN slot, ADD PRIMARY KEY (store_id, connection_id, status, contract_model);
      INSERT INTO supplier_order_counts SELECT store_id, connection_id, status, contract_model, n FROM merged;
      CREATE OR REPLACE FUNCTION supplier_order_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          UPDATE supplier_order_counts SET n = n - 1
           WHERE store_id = OLD.store_id AND connection_id = OLD.connection_id AND status = OLD.status AND contract_model = OLD.contract_model;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          INSERT INTO supplier_order_counts (store_id, connection_id, status, contract_model, n)
          VALUES (NEW.store_id, NEW.connection_id, NEW.status, NEW.contract_model, 1)
          ON CONFLICT (store_id, connection_id, status, contract_model) DO UPDATE SET n = supplier_order_counts.n + 1;
        END IF;
        RETURN NULL;
      END $$;
    `);
  }
}
