import { sqlMigration } from './sql-migration';

/**
 * Claims with the supplier (docs/decisions.md, "Claims with the supplier"): one row per claim, its id the key it is
 * sent under; the items it claims, each in at most one live claim (a partial unique index: a second claim on the same
 * items is refused by the database, not by a check that two requests could both pass). A claim rejected or withdrawn
 * releases its items. Open claims are read back when due (`next_check_at`, indexed on those rows only).
 */
export const SupplierClaims1765497600001 = sqlMigration('SupplierClaims1765497600001', {
  up: [
    `CREATE TABLE supplier_claims (
       store_id uuid NOT NULL,
       id uuid NOT NULL,
       supplier_order_id uuid NOT NULL,
       order_id uuid NOT NULL,
       connection_id uuid NOT NULL,
       supplier_key text NOT NULL,
       via text NOT NULL CHECK (via IN ('api', 'person')),
       reason text NOT NULL,
       expectation text NOT NULL CHECK (expectation IN ('refund', 'reship')),
       items jsonb NOT NULL,
       message text NOT NULL,
       evidence jsonb NOT NULL DEFAULT '[]',
       status text NOT NULL CHECK (status IN ('sending', 'open', 'withPerson', 'closed')),
       supplier_claim_id text,
       supplier_status text,
       outcome jsonb,
       deadline timestamptz,
       cancel_requested boolean NOT NULL DEFAULT false,
       next_check_at timestamptz,
       created_by_account_id uuid NOT NULL,
       created_by_key_id uuid,
       actor_kind text NOT NULL,
       actor_id text,
       created_at timestamptz NOT NULL DEFAULT now(),
       updated_at timestamptz NOT NULL DEFAULT now(),
       closed_at timestamptz,
       PRIMARY KEY (store_id, id),
       FOREIGN KEY (store_id, supplier_order_id) REFERENCES supplier_orders (store_id, id) ON DELETE CASCADE
     )`,
    'CREATE INDEX supplier_claims_order_idx ON supplier_claims (store_id, supplier_order_id, created_at)',
    'CREATE INDEX supplier_claims_due_idx ON supplier_claims (next_check_at) WHERE next_check_at IS NOT NULL',
    `CREATE TABLE supplier_claim_items (
       store_id uuid NOT NULL,
       claim_id uuid NOT NULL,
       supplier_order_id uuid NOT NULL,
       item_id uuid NOT NULL,
       released boolean NOT NULL DEFAULT false,
       PRIMARY KEY (store_id, claim_id, item_id),
       FOREIGN KEY (store_id, claim_id) REFERENCES supplier_claims (store_id, id) ON DELETE CASCADE
     )`,
    'CREATE UNIQUE INDEX supplier_claim_items_live_idx ON supplier_claim_items (store_id, supplier_order_id, item_id) WHERE NOT released',
  ],
  down: ['DROP TABLE supplier_claim_items', 'DROP TABLE supplier_claims'],
});
