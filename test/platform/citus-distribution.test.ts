import fs from 'node:fs';
import path from 'node:path';
import { Pool } from 'pg';
import { asTests, Service, startService } from '../support/harness';

/**
 * Citus cannot be installed here, so server/migrations/citus-distribute.sql runs against the migrated schema with
 * stand-ins for create_distributed_table and create_reference_table that check what Citus refuses (its documented
 * rules for unique keys, foreign keys, co-location and order), then records where each table would go.
 */
const FILE = path.resolve(__dirname, '../../server/migrations/citus-distribute.sql');
/** Tables that stay local on the coordinator: not a store's, or the job queue's (pg-boss has its own schema). */
const LOCAL = ['migrations', 'lookup_keys', 'rate_limits', 'supplier_call_rates', 'exchange_rates', 'exchange_rate_pins', 'database_identity'];

const STAND_INS = `
CREATE TABLE citus_placed (rel regclass PRIMARY KEY, kind text NOT NULL, column_name text, colocation text);

CREATE FUNCTION create_reference_table(t regclass) RETURNS void LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
  FOR r IN SELECT conname, confrelid::regclass AS target FROM pg_constraint WHERE conrelid = t AND contype = 'f' LOOP
    IF NOT EXISTS (SELECT 1 FROM citus_placed WHERE rel = r.target AND kind = 'reference') THEN
      RAISE EXCEPTION 'reference table % refers to %, not a reference table (%)', t, r.target, r.conname;
    END IF;
  END LOOP;
  INSERT INTO citus_placed VALUES (t, 'reference', NULL, NULL);
END $$;

CREATE FUNCTION create_distributed_table(t regclass, col text, colocate_with text DEFAULT 'default') RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  dist smallint; typ oid; grp text; r record; target citus_placed; target_dist smallint;
BEGIN
  SELECT attnum, atttypid INTO dist, typ FROM pg_attribute WHERE attrelid = t AND attname = col AND NOT attisdropped;
  IF dist IS NULL THEN RAISE EXCEPTION '% has no column %', t, col; END IF;
  IF NOT (SELECT attnotnull FROM pg_attribute WHERE attrelid = t AND attnum = dist) THEN RAISE EXCEPTION '%.% may be null', t, col; END IF;
  -- Citus: a unique or primary key must include the distribution column.
  FOR r IN SELECT indexrelid::regclass AS idx, indkey::int2[] AS cols FROM pg_index WHERE indrelid = t AND (indisunique OR indisexclusion) LOOP
    IF NOT dist = ANY (r.cols) THEN RAISE EXCEPTION 'unique index % of % does not include %', r.idx, t, col; END IF;
  END LOOP;
  IF colocate_with = 'none' THEN grp := t::text;
  ELSIF colocate_with = 'default' THEN grp := 'default:' || typ::regtype::text;
  ELSE
    SELECT colocation INTO grp FROM citus_placed WHERE rel = colocate_with::regclass AND kind = 'distributed';
    IF grp IS NULL THEN RAISE EXCEPTION '% is to be co-located with %, which is not distributed yet', t, colocate_with; END IF;
  END IF;
  -- Citus: a foreign key to a distributed table joins co-located tables on the distribution column; to a reference
  -- table, anything; to a local table, nothing. SET NULL / SET DEFAULT may not touch the distribution column.
  FOR r IN SELECT conname, confrelid::regclass AS target, conkey, confkey, confdeltype, confupdtype FROM pg_constraint WHERE conrelid = t AND contype = 'f' LOOP
    SELECT * INTO target FROM citus_placed WHERE rel = r.target;
    IF target IS NULL AND r.target <> t THEN RAISE EXCEPTION '% refers to % (%), neither distributed nor a reference table yet', t, r.target, r.conname; END IF;
    IF target.kind = 'distributed' OR r.target = t THEN
      IF r.target <> t AND target.colocation <> grp THEN RAISE EXCEPTION '% refers to %, not co-located (%)', t, r.target, r.conname; END IF;
      SELECT attnum INTO target_dist FROM pg_attribute WHERE attrelid = r.target AND attname = coalesce(target.column_name, col);
      IF array_position(r.conkey, dist) IS NULL OR array_position(r.conkey, dist) IS DISTINCT FROM array_position(r.confkey, target_dist) THEN
        RAISE EXCEPTION '% refers to % without the distribution column on both sides (%)', t, r.target, r.conname;
      END IF;
      IF r.confdeltype IN ('n', 'd') OR r.confupdtype IN ('n', 'd') THEN RAISE EXCEPTION '% sets the distribution column on delete (%)', t, r.conname; END IF;
    END IF;
  END LOOP;
  INSERT INTO citus_placed VALUES (t, 'distributed', col, grp);
END $$;
`;

let svc: Service;
let db: Pool;

beforeAll(async () => {
  svc = await startService({ label: 'citus' });
  await svc.stop();
  db = new Pool({ connectionString: asTests(svc.databaseUrl), max: 1 });
});
afterAll(async () => {
  await db.end();
});

async function distribute(prepare = ''): Promise<Array<{ rel: string; kind: string; column_name: string | null; colocation: string | null }>> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    await client.query(STAND_INS);
    if (prepare) await client.query(prepare);
    // The file's own BEGIN and COMMIT become part of this transaction (a warning each), so nothing stays.
    await client.query(fs.readFileSync(FILE, 'utf8').replace(/^(BEGIN|COMMIT);$/gm, ''));
    return (await client.query('SELECT rel::text, kind, column_name, colocation FROM citus_placed ORDER BY rel::text')).rows;
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

test('the distribution file runs on the migrated schema: every store table by store, co-located; accounts, keys and sessions everywhere', async () => {
  const placed = await distribute();
  const tables = (await db.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`)).rows.map((r) => r.tablename);
  // Every table of the schema has a place: distributed, a reference table, or named as local.
  expect(tables.filter((t) => !placed.some((p) => p.rel === t) && !LOCAL.includes(t))).toEqual([]);
  expect(placed.filter((p) => p.kind === 'reference').map((p) => p.rel)).toEqual(['accounts', 'api_keys', 'sessions']);
  const byStore = placed.filter((p) => p.kind === 'distributed' && !['credit_ledger', 'credit_holds', 'idempotency_keys'].includes(p.rel));
  expect(byStore.length).toBeGreaterThan(25);
  // One co-location group: the one stores opened.
  expect(new Set(byStore.map((p) => p.colocation))).toEqual(new Set([placed.find((p) => p.rel === 'stores')?.colocation]));
  expect(byStore.filter((p) => p.column_name !== (p.rel === 'stores' ? 'id' : 'store_id'))).toEqual([]);
  expect(placed.find((p) => p.rel === 'credit_ledger')).toEqual({
    rel: 'credit_ledger',
    kind: 'distributed',
    column_name: 'account_id',
    colocation: 'credit_ledger',
  });
  expect(placed.find((p) => p.rel === 'credit_holds')).toEqual({
    rel: 'credit_holds',
    kind: 'distributed',
    column_name: 'account_id',
    colocation: 'credit_ledger',
  });
  expect(placed.find((p) => p.rel === 'idempotency_keys')).toEqual({
    rel: 'idempotency_keys',
    kind: 'distributed',
    column_name: 'account_id',
    colocation: 'credit_ledger',
  });
});

test('the stand-ins refuse what Citus refuses: a key without store_id, a foreign key by id alone', async () => {
  await expect(
    distribute('ALTER TABLE supplier_order_events DROP CONSTRAINT supplier_order_events_pkey; ALTER TABLE supplier_order_events ADD PRIMARY KEY (id)'),
  ).rejects.toThrow(/unique index supplier_order_events_pkey of supplier_order_events does not include store_id/);
  await expect(
    distribute(
      'CREATE UNIQUE INDEX by_id ON store_products (id); ALTER TABLE store_order_items ADD CONSTRAINT by_id FOREIGN KEY (product_id) REFERENCES store_products (id)',
    ),
  ).rejects.toThrow(/unique index by_id of store_products does not include store_id/);
  // Both keys unique by store, but the foreign key pairs the store with another column.
  await expect(
    distribute('ALTER TABLE store_order_items ADD CONSTRAINT crossed FOREIGN KEY (store_id, product_id) REFERENCES store_products (id, store_id)'),
  ).rejects.toThrow(/store_order_items refers to store_products without the distribution column on both sides \(crossed\)/);
  await expect(distribute('ALTER TABLE accounts ADD COLUMN last_store uuid REFERENCES stores (id)')).rejects.toThrow(
    /reference table accounts refers to stores/,
  );
});
