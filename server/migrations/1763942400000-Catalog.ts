import { sqlMigration } from './sql-migration';

export const Catalog1763942400000 = sqlMigration('Catalog1763942400000', {
  up: [
    `
      CREATE TABLE product_links (
        id uuid PRIMARY KEY,
        store_id uuid NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
        product_id uuid NOT NULL UNIQUE REFERENCES store_products(id) ON DELETE CASCADE,
        connection_id uuid NOT NULL REFERENCES supplier_connections(id),
        supplier_key text NOT NULL,
        supplier_product_id text NOT NULL,
        price_rule jsonb NOT NULL,
        sync jsonb NOT NULL,
        last_sync_at timestamptz,
        last_sync_error text,
        created_by_account_id uuid NOT NULL,
        created_by_key_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX product_links_page_idx ON product_links (store_id, created_at DESC, id DESC);
      CREATE INDEX product_links_supplier_product_idx ON product_links (store_id, supplier_key, supplier_product_id);
      CREATE INDEX product_links_connection_idx ON product_links (connection_id, supplier_product_id);

      CREATE TABLE product_link_variants (
        link_id uuid NOT NULL REFERENCES product_links(id) ON DELETE CASCADE,
        store_variant_id uuid NOT NULL UNIQUE REFERENCES store_variants(id) ON DELETE CASCADE,
        supplier_variant_id text NOT NULL,
        cost_minor bigint NOT NULL CHECK (cost_minor >= 0),
        currency char(3) NOT NULL,
        stock integer NOT NULL,
        available boolean NOT NULL,
        PRIMARY KEY (link_id, store_variant_id)
      );

      CREATE TABLE import_jobs (
        id uuid PRIMARY KEY,
        store_id uuid NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
        connection_id uuid NOT NULL REFERENCES supplier_connections(id),
        status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
        price_rule jsonb NOT NULL,
        sync jsonb NOT NULL,
        total integer NOT NULL,
        created_by_account_id uuid NOT NULL,
        created_by_key_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      );
      CREATE INDEX import_jobs_store_idx ON import_jobs (store_id, created_at DESC);

      CREATE TABLE import_job_items (
        job_id uuid NOT NULL REFERENCES import_jobs(id) ON DELETE CASCADE,
        position integer NOT NULL,
        supplier_product_id text NOT NULL,
        variant_ids text[],
        status text NOT NULL CHECK (status IN ('pending', 'done', 'failed')),
        product_id uuid,
        error_code text,
        error_message text,
        PRIMARY KEY (job_id, position)
      );
    `,
  ],
  down: ['DROP TABLE import_job_items, import_jobs, product_link_variants, product_links'],
});
