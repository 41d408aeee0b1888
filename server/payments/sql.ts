import { affected, Queryable, rows } from '../platform/db';
import type { SealedValues } from '../platform/sealed';

// The payments concern's SQL statements: each store's payment provider and its sealed signing secret.

interface ProviderRow {
  store_id: string;
  provider: string;
  signing_secret_sealed: string;
  api_key_sealed: string | null;
  checkout_url: string | null;
  updated_at: Date;
}

export async function providerOf(db: Queryable, storeId: string): Promise<ProviderRow | null> {
  const [row] = await rows<ProviderRow>(
    db,
    'SELECT store_id, provider, signing_secret_sealed, api_key_sealed, checkout_url, updated_at FROM payment_providers WHERE store_id = $1',
    [storeId],
  );
  return row ?? null;
}

/** Sets the store's provider; an API key of undefined keeps the one stored (null removes it). */
export async function saveProvider(
  db: Queryable,
  storeId: string,
  provider: string,
  sealed: string,
  apiKeySealed: string | null | undefined,
  checkoutUrl: string | null,
): Promise<ProviderRow> {
  const [row] = await rows<ProviderRow>(
    db,
    `INSERT INTO payment_providers (store_id, provider, signing_secret_sealed, api_key_sealed, checkout_url) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (store_id) DO UPDATE SET provider = EXCLUDED.provider, signing_secret_sealed = EXCLUDED.signing_secret_sealed,
       api_key_sealed = CASE WHEN $6 THEN payment_providers.api_key_sealed ELSE EXCLUDED.api_key_sealed END, checkout_url = EXCLUDED.checkout_url, updated_at = now()
     RETURNING store_id, provider, signing_secret_sealed, api_key_sealed, checkout_url, updated_at`,
    [storeId, provider, sealed, apiKeySealed ?? null, checkoutUrl, apiKeySealed === undefined],
  );
  return row;
}

export async function removeProvider(db: Queryable, storeId: string): Promise<boolean> {
  return (await affected(db, 'DELETE FROM payment_providers WHERE store_id = $1', [storeId])) > 0;
}

/**
 * The secret each store's payment provider signs its notifications with, and the store's API key there (captures):
 * the keyring's reseal reads them, and replaces one only while it is unchanged.
 */
export const PROVIDER_SECRETS: SealedValues[] = (
  [
    ['paymentProviderSecrets', 'signing_secret_sealed'],
    ['paymentProviderApiKeys', 'api_key_sealed'],
  ] as const
).map(([name, column]) => ({
  name,
  list: (db, limit) =>
    rows<{ id: string; sealed: string }>(
      db,
      `SELECT /* cross-store: reseal-payment-provider-secrets */ store_id::text AS id, ${column} AS sealed FROM payment_providers WHERE ${column} IS NOT NULL ORDER BY store_id LIMIT $1`,
      [limit ?? null],
    ),
  replace: async (db, storeId, was, now) =>
    (await affected(db, `UPDATE payment_providers SET ${column} = $3 WHERE store_id = $1 AND ${column} = $2`, [storeId, was, now])) > 0,
}));
