import { affected, Queryable, rows } from '../platform/db';

// The payments concern's SQL statements: each store's payment provider and its sealed signing secret.

export interface ProviderRow {
  store_id: string;
  provider: string;
  signing_secret_sealed: string;
  checkout_url: string | null;
  updated_at: Date;
}

export async function providerOf(db: Queryable, storeId: string): Promise<ProviderRow | null> {
  const [row] = await rows<ProviderRow>(db, 'SELECT store_id, provider, signing_secret_sealed, checkout_url, updated_at FROM payment_providers WHERE store_id = $1', [storeId]);
  return row ?? null;
}

export async function saveProvider(db: Queryable, storeId: string, provider: string, sealed: string, checkoutUrl: string | null): Promise<ProviderRow> {
  const [row] = await rows<ProviderRow>(
    db,
    `INSERT INTO payment_providers (store_id, provider, signing_secret_sealed, checkout_url) VALUES ($1, $2, $3, $4)
     ON CONFLICT (store_id) DO UPDATE SET provider = EXCLUDED.provider, signing_secret_sealed = EXCLUDED.signing_secret_sealed, checkout_url = EXCLUDED.checkout_url, updated_at = now()
     RETURNING store_id, provider, signing_secret_sealed, checkout_url, updated_at`,
    [storeId, provider, sealed, checkoutUrl],
  );
  return row;
}

export async function removeProvider(db: Queryable, storeId: string): Promise<boolean> {
  return (await affected(db, 'DELETE FROM payment_providers WHERE store_id = $1', [storeId])) > 0;
}

/** Signing secrets as sealed, for the keyring's reseal; a value is replaced only while unchanged. */
export const sealedSecrets = (db: Queryable, limit?: number) =>
  rows<{ id: string; sealed: string }>(db, 'SELECT store_id::text AS id, signing_secret_sealed AS sealed FROM payment_providers ORDER BY store_id LIMIT $1', [limit ?? null]);
export const replaceSealedSecret = async (db: Queryable, storeId: string, was: string, now: string) =>
  (await affected(db, 'UPDATE payment_providers SET signing_secret_sealed = $3 WHERE store_id = $1 AND signing_secret_sealed = $2', [storeId, was, now])) > 0;
