import { sqlMigration } from './sql-migration';

/** Per-key rate limits every process on the database shares (server/platform/rate-limit.ts): the next theoretical arrival. */
export const RateLimits1764633600371 = sqlMigration('RateLimits1764633600371', {
  up: [
    `
      CREATE TABLE rate_limits (
        key text PRIMARY KEY,
        tat timestamptz NOT NULL,
        allowed boolean NOT NULL
      )
    `,
  ],
  down: ['DROP TABLE rate_limits'],
});
