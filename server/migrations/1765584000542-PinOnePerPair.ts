import { sqlMigration } from './sql-migration';

/**
 * One operator pin per pair of currencies, whichever way it is written (docs/decisions.md, "A pin governs both
 * ways"): the pin answers both directions, so a second pin the other way would be a rate that disagrees with it. The
 * database refuses it (a unique index on the unordered pair), not a check two requests could both pass. Where both
 * ways were pinned before, the newer pin stays.
 */
export const PinOnePerPair1765584000542 = sqlMigration('PinOnePerPair1765584000542', {
  up: [
    `DELETE FROM exchange_rate_pins a USING exchange_rate_pins b
      WHERE a.base = b.quote AND a.quote = b.base AND (a.pinned_at, a.base) < (b.pinned_at, b.base)`,
    'CREATE UNIQUE INDEX exchange_rate_pins_pair_idx ON exchange_rate_pins (least(base, quote), greatest(base, quote))',
  ],
  down: ['DROP INDEX exchange_rate_pins_pair_idx'],
});
