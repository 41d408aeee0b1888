/**
 * The stable lookup keys (crypto.ts LookupKeys) of one database: made once, from the secret its data was first
 * sealed under, and kept in it sealed under the keyring, so rotating APP_SECRET leaves every digest as it was.
 * Opening them is also the start's check that the keyring opens this database's data at all.
 */
import { LookupKeys, SealedUnreadable, Secrets } from './crypto';
import { ConfigError } from './env-vars';
import { affected, Queryable, rows } from './db';
import { type SealedValues, sealedSamples } from './sealed';

const refusal = () =>
  new ConfigError(
    'APP_SECRET opens none of the data sealed in this database: set APP_SECRET to the secret the data was sealed under (to rotate, keep that one in APP_SECRET_PREVIOUS beside the new APP_SECRET until `cli.js reseal` has run).',
  );

const pack = (k: LookupKeys) => JSON.stringify({ digest: k.digest.toString('base64url'), account: k.account.toString('base64url') });
function unpack(text: string): LookupKeys {
  const o = JSON.parse(text) as { digest: string; account: string };
  return { digest: Buffer.from(o.digest, 'base64url'), account: Buffer.from(o.account, 'base64url') };
}

/** The secret of `ring` that opens the data already sealed (the newest when there is none yet); a refusal when none does. */
async function secretOfData(db: Queryable, ring: string[], kinds: SealedValues[]): Promise<string> {
  const samples = await sealedSamples(db, kinds);
  if (!samples.length) return ring[0];
  const opener = ring.find((secret) => samples.some((s) => opens(new Secrets(secret), s)));
  if (opener === undefined) throw refusal();
  return opener;
}

function opens(secrets: Secrets, sealed: string): boolean {
  try {
    secrets.decrypt(sealed);
    return true;
  } catch {
    return false;
  }
}

/** The database's lookup keys, made on its first start under the keyring; refuses (ConfigError) when the keyring opens nothing. */
export async function openLookupKeys(db: Queryable, ring: string[], kinds: SealedValues[]): Promise<LookupKeys> {
  const keyring = new Secrets(ring);
  for (;;) {
    const [row] = await rows<{ sealed: string }>(db, 'SELECT sealed FROM lookup_keys WHERE id = 1');
    if (row) {
      try {
        return unpack(keyring.decrypt(row.sealed));
      } catch (err) {
        throw err instanceof SealedUnreadable ? refusal() : err;
      }
    }
    const made = Secrets.lookupKeysOf(await secretOfData(db, ring, kinds));
    // Several processes may start at once: the first row written is everyone's.
    await affected(db, 'INSERT INTO lookup_keys (id, sealed) VALUES (1, $1) ON CONFLICT (id) DO NOTHING', [keyring.encrypt(pack(made))]);
  }
}

/** The lookup keys' own row, sealed again with the rest. */
export const LOOKUP_KEYS_SEALED: SealedValues = {
  name: 'lookupKeys',
  list: (db) => rows(db, 'SELECT id::text AS id, sealed FROM lookup_keys'),
  replace: async (db, id, was, now) => (await affected(db, 'UPDATE lookup_keys SET sealed = $3 WHERE id = $1::smallint AND sealed = $2', [id, was, now])) > 0,
};
