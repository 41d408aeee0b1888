import { sqlMigration } from './sql-migration';

export const Foundation1763769600000 = sqlMigration('Foundation1763769600000', {
  up: [
    `
      CREATE TABLE accounts (
        id uuid PRIMARY KEY,
        email text NOT NULL,
        password_hash text NOT NULL,
        name text NOT NULL,
        plan text NOT NULL CHECK (plan IN ('free', 'starter', 'pro', 'business')),
        is_developer boolean NOT NULL DEFAULT false,
        credits integer NOT NULL CHECK (credits >= 0),
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX accounts_email_key ON accounts (lower(email));

      CREATE TABLE sessions (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        token_digest bytea NOT NULL UNIQUE,
        expires_at timestamptz NOT NULL,
        ended_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX sessions_expires_idx ON sessions (expires_at);

      CREATE TABLE api_keys (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name text NOT NULL,
        record_scope text NOT NULL DEFAULT 'own' CHECK (record_scope IN ('own', 'account')),
        key_digest bytea NOT NULL UNIQUE,
        key_sealed text NOT NULL,
        key_last4 text NOT NULL,
        last_used_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX api_keys_account_idx ON api_keys (account_id, created_at DESC, id DESC);

      CREATE TABLE credit_ledger (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        api_key_id uuid REFERENCES api_keys(id) ON DELETE SET NULL,
        action text NOT NULL,
        amount integer NOT NULL,
        balance_after integer NOT NULL,
        request_id text,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX credit_ledger_account_idx ON credit_ledger (account_id, id DESC);

      CREATE TABLE stores (
        id uuid PRIMARY KEY,
        owner_account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name text NOT NULL,
        currency char(3) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX stores_owner_idx ON stores (owner_account_id);

      CREATE TABLE store_staff (
        store_id uuid NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        permissions text[] NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (store_id, account_id)
      );
      CREATE INDEX store_staff_account_idx ON store_staff (account_id);

      CREATE TABLE store_products (
        id uuid PRIMARY KEY,
        store_id uuid NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
        title text NOT NULL,
        description text NOT NULL DEFAULT '',
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'draft', 'archived')),
        created_by_account_id uuid NOT NULL,
        created_by_key_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX store_products_page_idx ON store_products (store_id, created_at DESC, id DESC);
      CREATE INDEX store_products_key_page_idx ON store_products (store_id, created_by_key_id, created_at DESC, id DESC);

      CREATE TABLE store_variants (
        id uuid PRIMARY KEY,
        product_id uuid NOT NULL REFERENCES store_products(id) ON DELETE CASCADE,
        store_id uuid NOT NULL,
        sku text NOT NULL,
        title text NOT NULL,
        price_minor bigint NOT NULL CHECK (price_minor >= 0),
        currency char(3) NOT NULL,
        stock integer NOT NULL CHECK (stock >= 0),
        position integer NOT NULL
      );
      CREATE INDEX store_variants_product_idx ON store_variants (product_id, position);
      CREATE UNIQUE INDEX store_variants_sku_key ON store_variants (store_id, sku);
    `,
  ],
  down: [
    `DROP TABLE store_variants, store_products, store_staff, stores, credit_ledger, api_keys, sessions, accounts`,
  ],
});
