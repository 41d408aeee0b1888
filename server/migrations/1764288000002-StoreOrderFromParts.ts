import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The store order's status and needs-attention flag follow its parts, kept by the database: a change of a part
 * (or of the confirmation) recomputes them in the same statement, so a dispatch step writes one statement, not
 * five. The rule is the spec's: the order moves as its slowest part; shipped or delivered only when every
 * (not cancelled) part is. test/dispatch/rules-in-the-database.test.ts checks it against every combination.
 */
export class StoreOrderFromParts1764288000002 implements MigrationInterface {
  name = 'StoreOrderFromParts1764288000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION store_order_status_from_parts(p_order uuid, p_confirmed boolean) RETURNS text
      LANGUAGE sql STABLE AS $$
        SELECT CASE
          WHEN count(*) FILTER (WHERE status <> 'cancelled') = 0 THEN
            CASE WHEN count(*) > 0 THEN 'cancelled' WHEN p_confirmed THEN 'confirmed' ELSE 'pending' END
          ELSE
            CASE min(CASE status WHEN 'pending' THEN 0 WHEN 'processing' THEN 1 WHEN 'shipped' THEN 2 WHEN 'delivered' THEN 3 END)
                   FILTER (WHERE status <> 'cancelled')
              WHEN 0 THEN CASE WHEN p_confirmed THEN 'confirmed' ELSE 'pending' END
              WHEN 1 THEN 'processing'
              WHEN 2 THEN 'shipped'
              ELSE 'delivered'
            END
        END
        FROM fulfilment_groups WHERE order_id = p_order
      $$;

      CREATE FUNCTION store_order_follow_parts() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE o uuid := COALESCE(NEW.order_id, OLD.order_id);
      BEGIN
        UPDATE store_orders s
           SET status = store_order_status_from_parts(s.id, s.confirmed_at IS NOT NULL),
               needs_attention = EXISTS (SELECT 1 FROM fulfilment_groups g WHERE g.order_id = s.id AND g.needs_attention),
               updated_at = now()
         WHERE s.id = o;
        RETURN NULL;
      END $$;
      CREATE TRIGGER fulfilment_groups_follow AFTER INSERT OR DELETE OR UPDATE OF status, needs_attention ON fulfilment_groups
        FOR EACH ROW EXECUTE FUNCTION store_order_follow_parts();

      CREATE FUNCTION store_order_follow_confirmation() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.status := store_order_status_from_parts(NEW.id, NEW.confirmed_at IS NOT NULL);
        RETURN NEW;
      END $$;
      CREATE TRIGGER store_orders_follow_confirmation BEFORE UPDATE OF confirmed_at ON store_orders
        FOR EACH ROW EXECUTE FUNCTION store_order_follow_confirmation();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER store_orders_follow_confirmation ON store_orders;
      DROP TRIGGER fulfilment_groups_follow ON fulfilment_groups;
      DROP FUNCTION store_order_follow_confirmation();
      DROP FUNCTION store_order_follow_parts();
      DROP FUNCTION store_order_status_from_parts(uuid, boolean);
    `);
  }
}
