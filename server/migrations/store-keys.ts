/**
 * What the store keys migrations change, as data: the tables that reach their store only through a parent gain
 * `store_id`; every primary key, unique key and foreign key between store tables gains it (the credit ledger's key
 * gains `account_id`, its distribution column). Both migrations and the Citus check read these lists.
 */

/** A table that reaches its store through `via` → `parent`'s `parentId` (the parent carries `store_id`). */
export interface StoreChild {
  table: string;
  via: string;
  parent: string;
  parentId: string;
}

export const STORE_CHILDREN: readonly StoreChild[] = [
  { table: 'product_link_variants', via: 'link_id', parent: 'product_links', parentId: 'id' },
  { table: 'import_job_items', via: 'job_id', parent: 'import_jobs', parentId: 'id' },
  { table: 'store_order_items', via: 'order_id', parent: 'store_orders', parentId: 'id' },
  { table: 'fulfilment_groups', via: 'order_id', parent: 'store_orders', parentId: 'id' },
  { table: 'payment_events', via: 'order_id', parent: 'store_orders', parentId: 'id' },
  { table: 'supplier_order_events', via: 'supplier_order_id', parent: 'supplier_orders', parentId: 'id' },
  { table: 'supplier_order_numbers', via: 'connection_id', parent: 'supplier_connections', parentId: 'id' },
  { table: 'supplier_notification_receipts', via: 'connection_id', parent: 'supplier_connections', parentId: 'id' },
  { table: 'event_deliveries', via: 'subscription_id', parent: 'event_subscriptions', parentId: 'id' },
  { table: 'event_reactions', via: 'event_seq', parent: 'event_outbox', parentId: 'seq' },
];

/**
 * A key that gains the distribution column. `next`: the unique index built beside the old key (expand), which
 * becomes the key (contract); `old`: the key it replaces, as it was made.
 */
export interface StoreKey {
  table: string;
  next: string;
  columns: string;
  where?: string;
  /** The primary key (promoted from `next`), or a unique index that keeps the name `next`. */
  primary: boolean;
  old: { name: string; kind: 'primary' | 'unique' | 'index'; columns: string; where?: string };
}

const pk = (table: string, columns: string, oldColumns = 'id', next = `${table}_pkey_next`): StoreKey => ({
  table,
  next,
  columns,
  primary: true,
  old: { name: `${table}_pkey`, kind: 'primary', columns: oldColumns },
});

export const STORE_KEYS: readonly StoreKey[] = [
  pk('store_products', 'store_id, id'),
  pk('store_variants', 'store_id, id'),
  // (store_id, id) already exists on these two (backup suppliers' foreign keys use it): it becomes the key.
  pk('product_links', 'store_id, id', 'id', 'product_links_store_id_idx'),
  pk('supplier_connections', 'store_id, id', 'id', 'supplier_connections_store_id_idx'),
  pk('product_link_variants', 'store_id, link_id, store_variant_id', 'link_id, store_variant_id'),
  pk('import_jobs', 'store_id, id'),
  pk('import_job_items', 'store_id, job_id, position', 'job_id, position'),
  pk('store_orders', 'store_id, id'),
  pk('store_order_items', 'store_id, id'),
  pk('fulfilment_groups', 'store_id, order_id, group_key', 'order_id, group_key'),
  pk('payment_events', 'store_id, id'),
  pk('supplier_orders', 'store_id, id'),
  pk('supplier_order_events', 'store_id, id'),
  pk('supplier_order_numbers', 'store_id, connection_id, order_number', 'connection_id, order_number'),
  pk('supplier_notification_receipts', 'store_id, connection_id, event_id', 'connection_id, event_id'),
  pk('supplier_sign_in_states', 'store_id, nonce', 'nonce'),
  pk('event_outbox', 'store_id, seq', 'seq'),
  pk('event_subscriptions', 'store_id, id'),
  pk('event_deliveries', 'store_id, id'),
  pk('event_reactions', 'store_id, id'),
  pk('credit_ledger', 'account_id, id'),
  unique('product_links', 'product_links_product_key', 'store_id, product_id', { name: 'product_links_product_id_key', kind: 'unique', columns: 'product_id' }),
  unique('product_link_variants', 'product_link_variants_variant_key', 'store_id, store_variant_id', { name: 'product_link_variants_store_variant_id_key', kind: 'unique', columns: 'store_variant_id' }),
  unique('supplier_orders', 'supplier_orders_group_key', 'store_id, order_id, group_key', { name: 'supplier_orders_order_id_group_key_key', kind: 'unique', columns: 'order_id, group_key' }),
  unique('supplier_orders', 'supplier_orders_store_number_key', 'store_id, connection_id, supplier_order_number', { name: 'supplier_orders_number_key', kind: 'index', columns: 'connection_id, supplier_order_number' }),
  unique('payment_events', 'payment_events_provider_event_key', 'store_id, order_id, provider_event_id', { name: 'payment_events_provider_event_idx', kind: 'index', columns: 'order_id, provider_event_id', where: 'provider_event_id IS NOT NULL' }, 'provider_event_id IS NOT NULL'),
  unique('supplier_sign_in_states', 'supplier_sign_in_states_store_id_key', 'store_id, id', { name: 'supplier_sign_in_states_id_key', kind: 'unique', columns: 'id' }),
  unique('event_outbox', 'event_outbox_store_id_key', 'store_id, id', { name: 'event_outbox_id_key', kind: 'unique', columns: 'id' }),
  unique('event_deliveries', 'event_deliveries_event_key', 'store_id, event_seq, subscription_id', { name: 'event_deliveries_event_seq_subscription_id_key', kind: 'unique', columns: 'event_seq, subscription_id' }),
  unique('event_reactions', 'event_reactions_event_key', 'store_id, event_seq, handler', { name: 'event_reactions_event_seq_handler_key', kind: 'unique', columns: 'event_seq, handler' }),
];

function unique(table: string, next: string, columns: string, old: StoreKey['old'], where?: string): StoreKey {
  return { table, next, columns, where, primary: false, old };
}

/** A foreign key between store tables: the old one (without `store_id`) and the one that replaces it. */
export interface StoreForeignKey {
  table: string;
  columns: string;
  references: string;
  referencedColumns: string;
  onDelete: 'CASCADE' | 'NO ACTION';
  old: string;
}

const fk = (table: string, column: string, references: string, onDelete: StoreForeignKey['onDelete'], referenced = 'id'): StoreForeignKey => ({
  table,
  columns: `store_id, ${column}`,
  references,
  referencedColumns: `store_id, ${referenced}`,
  onDelete,
  old: `${table}_${column}_fkey`,
});

export const STORE_FOREIGN_KEYS: readonly StoreForeignKey[] = [
  fk('fulfilment_groups', 'connection_id', 'supplier_connections', 'NO ACTION'),
  fk('fulfilment_groups', 'order_id', 'store_orders', 'CASCADE'),
  fk('import_job_items', 'job_id', 'import_jobs', 'CASCADE'),
  fk('import_jobs', 'connection_id', 'supplier_connections', 'NO ACTION'),
  fk('payment_events', 'order_id', 'store_orders', 'CASCADE'),
  fk('product_link_variants', 'link_id', 'product_links', 'CASCADE'),
  fk('product_link_variants', 'store_variant_id', 'store_variants', 'CASCADE'),
  fk('product_links', 'connection_id', 'supplier_connections', 'NO ACTION'),
  fk('product_links', 'product_id', 'store_products', 'CASCADE'),
  fk('store_order_items', 'order_id', 'store_orders', 'CASCADE'),
  fk('store_variants', 'product_id', 'store_products', 'CASCADE'),
  fk('supplier_notification_receipts', 'connection_id', 'supplier_connections', 'CASCADE'),
  fk('supplier_order_events', 'supplier_order_id', 'supplier_orders', 'CASCADE'),
  fk('supplier_order_numbers', 'connection_id', 'supplier_connections', 'CASCADE'),
  fk('supplier_orders', 'connection_id', 'supplier_connections', 'NO ACTION'),
  fk('supplier_orders', 'order_id', 'store_orders', 'CASCADE'),
  fk('event_deliveries', 'event_seq', 'event_outbox', 'CASCADE', 'seq'),
  fk('event_deliveries', 'subscription_id', 'event_subscriptions', 'CASCADE'),
  fk('event_reactions', 'event_seq', 'event_outbox', 'CASCADE', 'seq'),
];

/** The name of a replacing foreign key: the old name with `_store` before `_fkey`. */
export const nextForeignKeyName = (k: StoreForeignKey): string => k.old.replace(/_fkey$/, '_store_fkey');

/** What an old foreign key was (each referenced the parent's `id`, or the outbox's `seq`). */
export const oldForeignKeyDefinition = (k: StoreForeignKey): string => {
  const column = k.columns.replace('store_id, ', '');
  const referenced = k.referencedColumns.replace('store_id, ', '');
  return `FOREIGN KEY (${column}) REFERENCES ${k.references} (${referenced})${k.onDelete === 'CASCADE' ? ' ON DELETE CASCADE' : ''}`;
};

const fillFunction = (c: StoreChild) => `${c.table}_fill_store_id`;

/** The trigger that fills a child row's `store_id` from its parent when the writer (the previous release) omits it. */
export const fillTrigger = (c: StoreChild): string[] => [
  `CREATE OR REPLACE FUNCTION ${fillFunction(c)}() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF NEW.store_id IS NULL THEN
       SELECT p.store_id INTO NEW.store_id FROM ${c.parent} p WHERE p.${c.parentId} = NEW.${c.via};
     END IF;
     RETURN NEW;
   END $$`,
  `DROP TRIGGER IF EXISTS ${fillFunction(c)} ON ${c.table}`,
  `CREATE TRIGGER ${fillFunction(c)} BEFORE INSERT ON ${c.table} FOR EACH ROW EXECUTE FUNCTION ${fillFunction(c)}()`,
];

export const dropFillTrigger = (c: StoreChild): string[] => [`DROP TRIGGER IF EXISTS ${fillFunction(c)} ON ${c.table}`, `DROP FUNCTION IF EXISTS ${fillFunction(c)}()`];
