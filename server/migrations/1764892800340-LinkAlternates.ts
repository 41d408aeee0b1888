import { sqlMigration } from './sql-migration';

/**
 * Backup suppliers: each store variant of a link may name an ordered list of alternate supplier variants on other
 * connections of the same store. Keyed and referenced by `store_id` first, as every store table will be once tables
 * are distributed by store; the sync keeps each alternate's cost, currency and stock (`synced_at`).
 */
export const LinkAlternates1764892800340 = sqlMigration('LinkAlternates1764892800340', {
  up: [
    'CREATE UNIQUE INDEX product_links_store_id_idx ON product_links (store_id, id)',
    'CREATE UNIQUE INDEX supplier_connections_store_id_idx ON supplier_connections (store_id, id)',
    `
      CREATE TABLE product_link_alternates (
        store_id uuid NOT NULL,
        link_id uuid NOT NULL,
        store_variant_id uuid NOT NULL,
        position smallint NOT NULL CHECK (position >= 0),
        connection_id uuid NOT NULL,
        supplier_product_id text NOT NULL,
        supplier_variant_id text NOT NULL,
        cost_minor bigint NOT NULL,
        currency text NOT NULL,
        stock integer NOT NULL,
        available boolean NOT NULL,
        synced_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (store_id, link_id, store_variant_id, position),
        FOREIGN KEY (store_id, link_id) REFERENCES product_links (store_id, id) ON DELETE CASCADE,
        FOREIGN KEY (store_id, connection_id) REFERENCES supplier_connections (store_id, id) ON DELETE CASCADE
      );
      CREATE INDEX product_link_alternates_variant_idx ON product_link_alternates (store_id, store_variant_id, position);
      CREATE INDEX product_link_alternates_connection_idx ON product_link_alternates (connection_id);
    `,
  ],
  down: ['DROP TABLE product_link_alternates', 'DROP INDEX supplier_connections_store_id_idx', 'DROP INDEX product_links_store_id_idx'],
});
