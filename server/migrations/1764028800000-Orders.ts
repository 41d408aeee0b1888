import { MigrationInterface, QueryRunner } from 'typeorm';

export class Orders1764028800000 implements MigrationInterface {
  name = 'Orders1764028800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE stores ADD COLUMN order_counter integer NOT NULL DEFAULT 1000;

      CREATE TABLE store_orders (
        id uuid PRIMARY KEY,
        store_id uuid NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
        number text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'confirmed', 'processing', 'shipped', 'delivered', 'cancelled')),
        payment_method text NOT NULL CHECK (payment_method IN ('online', 'cashOnDelivery', 'manual')),
        payment_status text NOT NULL CHECK (payment_status IN ('none', 'authorised', 'paid', 'failed', 'refunded')),
        contract_model text NOT NULL CHECK (contract_model IN ('standard', 'promiseToSell')),
        currency char(3) NOT NULL,
        total_minor bigint NOT NULL,
        destination jsonb NOT NULL,
        needs_attention boolean NOT NULL DEFAULT false,
        created_by_account_id uuid NOT NULL,
        created_by_key_id uuid,
        confirmed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (store_id, number)
      );
      CREATE INDEX store_orders_page_idx ON store_orders (store_id, created_at DESC, id DESC);
      CREATE INDEX store_orders_attention_idx ON store_orders (store_id, created_at DESC, id DESC) WHERE needs_attention;

      CREATE TABLE store_order_items (
        id uuid PRIMARY KEY,
        order_id uuid NOT NULL REFERENCES store_orders(id) ON DELETE CASCADE,
        position integer NOT NULL,
        product_id uuid NOT NULL,
        variant_id uuid NOT NULL,
        sku text NOT NULL,
        title text NOT NULL,
        quantity integer NOT NULL CHECK (quantity > 0),
        unit_price_minor bigint NOT NULL,
        group_key text NOT NULL,
        supplier_variant_id text,
        link_cost_minor bigint
      );
      CREATE INDEX store_order_items_order_idx ON store_order_items (order_id, position);

      -- Order parts: the store's own items, and one part per supplier connection.
      CREATE TABLE fulfilment_groups (
        order_id uuid NOT NULL REFERENCES store_orders(id) ON DELETE CASCADE,
        group_key text NOT NULL,
        connection_id uuid REFERENCES supplier_connections(id),
        status text NOT NULL CHECK (status IN ('pending', 'processing', 'shipped', 'delivered', 'cancelled')),
        shipment jsonb,
        fulfilled_by_store boolean NOT NULL DEFAULT false,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (order_id, group_key)
      );

      CREATE TABLE payment_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        order_id uuid NOT NULL REFERENCES store_orders(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('authorised', 'paid', 'failed', 'refunded', 'captured', 'captureFailed')),
        amount_minor bigint,
        reference text,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX payment_events_order_idx ON payment_events (order_id, id);

      CREATE TABLE supplier_orders (
        id uuid PRIMARY KEY,
        store_id uuid NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
        order_id uuid NOT NULL REFERENCES store_orders(id) ON DELETE CASCADE,
        group_key text NOT NULL,
        connection_id uuid NOT NULL REFERENCES supplier_connections(id),
        supplier_key text NOT NULL,
        order_number text NOT NULL,
        contract_model text NOT NULL,
        status text NOT NULL CHECK (status IN ('queued', 'needsReview', 'submitted', 'confirmed', 'processing', 'shipped', 'delivered', 'cancelled', 'failed')),
        review_reason text,
        review_message text,
        retryable boolean,
        supplier_order_number text NOT NULL,
        number_known_absent boolean NOT NULL DEFAULT false,
        supplier_order_id text,
        supplier_status text,
        costs jsonb,
        payment_status text NOT NULL DEFAULT 'unpaid' CHECK (payment_status IN ('notRequired', 'unpaid', 'paid', 'refunded')),
        shipping jsonb,
        attempt integer NOT NULL DEFAULT 1,
        pay_now boolean NOT NULL DEFAULT false,
        pay_requested boolean NOT NULL DEFAULT false,
        cancel_requested boolean NOT NULL DEFAULT false,
        store_takes_over boolean NOT NULL DEFAULT false,
        accepted_cost_minor bigint,
        destination jsonb NOT NULL,
        retries_used integer NOT NULL DEFAULT 0,
        next_retry_at timestamptz,
        created_by_account_id uuid NOT NULL,
        created_by_key_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (order_id, group_key)
      );
      CREATE UNIQUE INDEX supplier_orders_number_key ON supplier_orders (connection_id, supplier_order_number);
      CREATE INDEX supplier_orders_page_idx ON supplier_orders (store_id, created_at DESC, id DESC);
      CREATE INDEX supplier_orders_review_idx ON supplier_orders (store_id, created_at DESC, id DESC) WHERE status = 'needsReview';
      CREATE INDEX supplier_orders_status_idx ON supplier_orders (store_id, status, created_at DESC, id DESC);
      CREATE INDEX supplier_orders_connection_idx ON supplier_orders (connection_id, supplier_order_id);
      CREATE INDEX supplier_orders_retry_idx ON supplier_orders (next_retry_at) WHERE status = 'failed';

      CREATE TABLE supplier_order_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        supplier_order_id uuid NOT NULL REFERENCES supplier_orders(id) ON DELETE CASCADE,
        at timestamptz NOT NULL DEFAULT clock_timestamp(),
        actor_kind text NOT NULL CHECK (actor_kind IN ('key', 'user', 'system')),
        actor_id text,
        type text NOT NULL,
        from_status text,
        to_status text,
        details jsonb NOT NULL DEFAULT '{}'
      );
      CREATE INDEX supplier_order_events_order_idx ON supplier_order_events (supplier_order_id, id);

      -- Exact totalCount at any size: counts kept per store and filter combination by trigger.
      CREATE TABLE supplier_order_counts (
        store_id uuid NOT NULL,
        connection_id uuid NOT NULL,
        status text NOT NULL,
        contract_model text NOT NULL,
        n bigint NOT NULL,
        PRIMARY KEY (store_id, connection_id, status, contract_model)
      );
      CREATE FUNCTION supplier_order_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
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
      CREATE TRIGGER supplier_order_counts_ins_del AFTER INSERT OR DELETE ON supplier_orders
        FOR EACH ROW EXECUTE FUNCTION supplier_order_counts_track();
      CREATE TRIGGER supplier_order_counts_upd AFTER UPDATE OF status, store_id, connection_id, contract_model ON supplier_orders
        FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.connection_id IS DISTINCT FROM NEW.connection_id OR OLD.contract_model IS DISTINCT FROM NEW.contract_model OR OLD.store_id IS DISTINCT FROM NEW.store_id)
        EXECUTE FUNCTION supplier_order_counts_track();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE supplier_order_counts, supplier_order_events, supplier_orders, payment_events, fulfilment_groups, store_order_items, store_orders;
      DROP FUNCTION supplier_order_counts_track();
      ALTER TABLE stores DROP COLUMN order_counter;
    `);
  }
}
