import { sqlMigration } from './sql-migration';

export const SupplierConnections1763856000000 = sqlMigration('SupplierConnections1763856000000', {
  up: [
    `
      CREATE TABLE supplier_connections (
        id uuid PRIMARY KEY,
        store_id uuid NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
        supplier_key text NOT NULL,
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        enabled boolean NOT NULL DEFAULT true,
        credentials_sealed text,
        account_label text NOT NULL DEFAULT '',
        settings jsonb NOT NULL DEFAULT '{}',
        automation jsonb NOT NULL,
        health jsonb,
        consecutive_failures integer NOT NULL DEFAULT 0,
        circuit_open_until timestamptz,
        last_webhook_at timestamptz,
        created_by_account_id uuid NOT NULL,
        created_by_key_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        disconnected_at timestamptz
      );
      CREATE UNIQUE INDEX supplier_connections_one_active ON supplier_connections (store_id, supplier_key, mode) WHERE disconnected_at IS NULL;
      CREATE INDEX supplier_connections_store_idx ON supplier_connections (store_id, created_at DESC, id DESC);

      CREATE TABLE supplier_sign_in_states (
        nonce text PRIMARY KEY,
        store_id uuid NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        api_key_id uuid,
        supplier_key text NOT NULL,
        mode text NOT NULL,
        redirect_uri text NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );

      -- Event ids of accepted notifications, so a replay inside the timestamp tolerance is refused.
      CREATE TABLE supplier_notification_receipts (
        connection_id uuid NOT NULL REFERENCES supplier_connections(id) ON DELETE CASCADE,
        event_id text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (connection_id, event_id)
      );
      CREATE INDEX supplier_notification_receipts_age_idx ON supplier_notification_receipts (received_at);
    `,
  ],
  down: ['DROP TABLE supplier_notification_receipts, supplier_sign_in_states, supplier_connections'],
});
