import type { DataSource } from 'typeorm';
import type { Secrets } from '../platform/crypto';
import type { Claimed, IdempotencyKeys, KeyClaim, StoredAnswer } from '../platform/http/idempotency';
import * as sql from './sql/idempotency';

/** Answers are kept at least this long (a day, as Stripe keeps them); the hourly housekeeping removes older keys. */
export const IDEMPOTENCY_KEEP_HOURS = 24;

/**
 * Callers' idempotency keys in Postgres. Answers are sealed: a create's answer may carry a secret shown once (an event
 * subscription's signing secret), which a replay shows again to the same caller and nobody else.
 */
export function idempotencyKeys(db: DataSource, secrets: Secrets, leaseSeconds: number): IdempotencyKeys & { sweep(): Promise<number> } {
  return {
    renewEveryMs: Math.max(1000, (leaseSeconds * 1000) / 3),
    async claim(c: KeyClaim): Promise<Claimed> {
      const { taken, row } = await sql.claimKey(db, c, leaseSeconds);
      if (taken) return { kind: 'run' };
      // Removed meanwhile (the first request failed on our side and gave it back): this one may take it.
      if (!row) return this.claim(c);
      if (row.fingerprint !== c.fingerprint) return { kind: 'reused' };
      if (row.answer_status !== null) return { kind: 'replay', answer: JSON.parse(secrets.decrypt(row.answer_sealed!)) as StoredAnswer };
      if (row.made_ref !== null && row.lapsed) return { kind: 'recover', ref: row.made_ref };
      return { kind: 'inProgress' };
    },
    renew: (c) => sql.renewKey(db, c, leaseSeconds),
    async made(tx, c, ref) {
      // The claim lapsed and another request took the key: this create must not commit beside that one.
      if (!(await sql.markMade(tx, c, ref))) throw new Error('the idempotency key is no longer held by this request');
    },
    answer: (c, a) => sql.keepAnswer(db, c, a.status, secrets.encrypt(JSON.stringify(a))),
    release: (c) => sql.releaseKey(db, c),
    sweep: () => sql.sweepKeys(db, IDEMPOTENCY_KEEP_HOURS),
  };
}
