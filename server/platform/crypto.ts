import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(crypto.scrypt) as (p: crypto.BinaryLike, s: crypto.BinaryLike, n: number, o: crypto.ScryptOptions) => Promise<Buffer>;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Base62 of `bytes` random bytes (rejection sampling keeps every character equally likely). */
export function randomBase62(bytes: number): string {
  const length = Math.ceil((bytes * 8) / Math.log2(62));
  let out = '';
  while (out.length < length) {
    for (const b of crypto.randomBytes(length * 2)) {
      if (b < 248) out += BASE62[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Whether `given` is `expected`, in time that does not depend on where they differ (or on their lengths). */
export function sameSecret(expected: string, given: string): boolean {
  const a = crypto.createHash('sha256').update(expected).digest();
  const b = crypto.createHash('sha256').update(given).digest();
  return crypto.timingSafeEqual(a, b) && expected.length > 0;
}

/** Keys of one secret of the keyring, derived per purpose so one leaked derived key does not expose the others. */
interface RingKey {
  encryption: Buffer;
  // The HMAC keys are key objects: given raw bytes, createHmac checks and wraps them at every call (8.6 µs against 1.6 µs on Node 24).
  signing: crypto.KeyObject;
}

const derive = (secret: string, purpose: string) => Buffer.from(crypto.hkdfSync('sha256', secret, 'store-suppliers', purpose, 32));

/**
 * The keys stored lookups are made with: digests of API keys and session tokens (found by digest) and supplier
 * account keys (compared across connections). A rotation of APP_SECRET must not change them, or every key, session
 * and shared supplier account would be lost at once: they are made once per database (from the secret the data was
 * first sealed under, as before the keyring) and kept in it, sealed under the keyring (platform/lookup-keys.ts).
 */
export interface LookupKeys {
  digest: Buffer;
  account: Buffer;
}

/** Thrown when no secret of the keyring opens a sealed value. */
export class SealedUnreadable extends Error {
  constructor() {
    super('No secret of the keyring (APP_SECRET, APP_SECRET_PREVIOUS) opens this sealed value');
  }
}

/**
 * APP_SECRET and the secrets a rotation left behind (newest first): new seals and signatures use the newest; a
 * sealed value or a signature is read with each in turn. Lookup digests use the stable LookupKeys.
 */
export class Secrets {
  private readonly ring: RingKey[];
  private readonly digestKey: crypto.KeyObject;
  private readonly accountKey: crypto.KeyObject;

  /** `lookup`: the database's stable keys; without them (tools, tests) they are the newest secret's, as before the keyring. */
  constructor(secrets: string | string[], lookup?: LookupKeys) {
    const list = typeof secrets === 'string' ? [secrets] : secrets;
    if (!list.length) throw new Error('a keyring needs a secret');
    this.ring = list.map((secret) => ({ encryption: derive(secret, 'encryption'), signing: crypto.createSecretKey(derive(secret, 'signing')) }));
    const keys = lookup ?? Secrets.lookupKeysOf(list[0]);
    this.digestKey = crypto.createSecretKey(keys.digest);
    this.accountKey = crypto.createSecretKey(keys.account);
  }

  /** The lookup keys one secret made before the keyring existed: the digest key, and the signing key (account keys were signatures). */
  static lookupKeysOf(secret: string): LookupKeys {
    return { digest: derive(secret, 'lookup-digest'), account: derive(secret, 'signing') };
  }

  digest(value: string): Buffer {
    return crypto.createHmac('sha256', this.digestKey).update(value).digest();
  }

  /** A supplier's account id as kept (some suppliers' ids are secrets): the same whatever the keyring. */
  supplierAccountKey(accountId: string): string {
    return crypto.createHmac('sha256', this.accountKey).update(`supplier-account|${accountId}`).digest('base64url');
  }

  /** The tag of a notification address (connections/addresses.ts): keyed like account keys, so a rotation of APP_SECRET keeps every address. */
  addressTag(value: string): string {
    return crypto.createHmac('sha256', this.accountKey).update(`notification-address|${value}`).digest('base64url').slice(0, 22);
  }

  sign(value: string): string {
    return this.signWith(this.ring[0], value);
  }

  /** Whether `signature` (or its first `length` characters) is `value`'s under any secret of the keyring. */
  verifySignature(value: string, signature: string, length?: number): boolean {
    const given = Buffer.from(signature);
    return this.ring.some((k) => {
      const expected = Buffer.from(length ? this.signWith(k, value).slice(0, length) : this.signWith(k, value));
      return expected.length === given.length && crypto.timingSafeEqual(expected, given);
    });
  }

  private signWith(k: RingKey, value: string): string {
    return crypto.createHmac('sha256', k.signing).update(value).digest('base64url');
  }

  /** AES-256-GCM under the newest secret; output `v1.<iv>.<tag>.<ciphertext>` in base64url. */
  encrypt(plain: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.ring[0].encryption, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
  }

  /** Opened with the first secret of the keyring that opens it (GCM's tag tells a wrong key at once). */
  decrypt(sealed: string): string {
    const opened = this.open(sealed);
    if (opened === null) throw new SealedUnreadable();
    return opened.plain;
  }

  /** The value sealed under the newest secret: null when it already is; throws when no secret opens it. */
  resealed(sealed: string): string | null {
    const opened = this.open(sealed);
    if (opened === null) throw new SealedUnreadable();
    return opened.by === 0 ? null : this.encrypt(opened.plain);
  }

  private open(sealed: string): { plain: string; by: number } | null {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Unreadable sealed value');
    for (let by = 0; by < this.ring.length; by++) {
      try {
        const decipher = crypto.createDecipheriv('aes-256-gcm', this.ring[by].encryption, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return { plain: Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8'), by };
      } catch {
        // not this secret's
      }
    }
    return null;
  }
}

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 };

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scryptAsync(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, maxmem: 64 * 1024 * 1024 });
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 64 * 1024 * 1024,
  });
  return crypto.timingSafeEqual(expected, actual);
}
