import { MigrationInterface, QueryRunner } from 'typeorm';

/** The key column of a counts table: records made without a key (signed-in users) count under this id. */
export const NO_KEY = '00000000-0000-0000-0000-000000000000';

interface Counted {
  table: string;
  counts: string;
  /** Counts-table column → expression over a row of `table`. */
  keys: Record<string, string>;
}

const COUNTED: Counted[] = [
  { table: 'store_products', counts: 'store_product_counts', keys: { store_id: 'store_id', status: 'status', key_id: `coalesce(created_by_key_id, '${NO_KEY}')` } },
  { table: 'product_links', counts: 'product_link_counts', keys: { store_id: 'store_id', connection_id: 'connection_id', key_id: `coalesce(created_by_key_id, '${NO_KEY}')` } },
  { table: 'store_orders', counts: 'store_order_counts', keys: { store_id: 'store_id', status: 'status', needs_attention: 'needs_attention', key_id: `coalesce(created_by_key_id, '${NO_KEY}')` } },
];

const TYPES: Record<string, string> = { store_id: 'uuid', status: 'text', key_id: 'uuid', connection_id: 'uuid', needs_attention: 'boolean' };

/** Statement-level triggers over the transition tables: a bulk insert adds once per group, not once per row. */
function up(c: Counted): string {
  const cols = Object.keys(c.keys);
  const exprs = Object.values(c.keys);
  const delta = (rows: string, sign: string) => `SELECT ${exprs.join(', ')}, ${sign} AS d FROM ${rows}`;
  const apply = (source: string) => `
      INSERT INTO ${c.counts} AS c (${cols.join(', ')}, n)
      SELECT ${cols.join(', ')}, sum(d) FROM (${source}) x(${cols.join(', ')}, d)
       GROUP BY ${cols.join(', ')} HAVING sum(d) <> 0 ORDER BY ${cols.join(', ')}
      ON CONFLICT (${cols.join(', ')}) DO UPDATE SET n = c.n + excluded.n;`;
  return `
    CREATE TABLE ${c.counts} (${cols.map((k) => `${k} ${TYPES[k]} NOT NULL`).join(', ')}, n bigint NOT NULL, PRIMARY KEY (${cols.join(', ')}));
    INSERT INTO ${c.counts} (${cols.join(', ')}, n) SELECT ${exprs.join(', ')}, count(*) FROM ${c.table} GROUP BY ${exprs.join(', ')};
    CREATE FUNCTION ${c.counts}_ins() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${apply(delta('new_rows', '1'))} RETURN NULL; END $$;
    CREATE FUNCTION ${c.counts}_del() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${apply(delta('old_rows', '-1'))} RETURN NULL; END $$;
    CREATE FUNCTION ${c.counts}_upd() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${apply(`${delta('new_rows', '1')} UNION ALL ${delta('old_rows', '-1')}`)} RETURN NULL; END $$;
    CREATE TRIGGER ${c.counts}_ins AFTER INSERT ON ${c.table} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${c.counts}_ins();
    CREATE TRIGGER ${c.counts}_del AFTER DELETE ON ${c.table} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${c.counts}_del();
    CREATE TRIGGER ${c.counts}_upd AFTER UPDATE ON ${c.table} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${c.counts}_upd();`;
}

/**
 * Exact totalCount for the lists of store products, product links and store orders, kept by the database
 * per store and filter combination (as supplier_order_counts already is), so no page counts its rows.
 */
export class ListCounts1764288000010 implements MigrationInterface {
  name = 'ListCounts1764288000010';

  async up(q: QueryRunner): Promise<void> {
    for (const c of COUNTED) await q.query(up(c));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const c of COUNTED) {
      await q.query(`DROP TRIGGER ${c.counts}_ins ON ${c.table}; DROP TRIGGER ${c.counts}_del ON ${c.table}; DROP TRIGGER ${c.counts}_upd ON ${c.table};
        DROP FUNCTION ${c.counts}_ins(), ${c.counts}_del(), ${c.counts}_upd(); DROP TABLE ${c.counts};`);
    }
  }
}
