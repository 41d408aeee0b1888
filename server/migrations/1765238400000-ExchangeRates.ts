import { sqlMigration } from './sql-migration';

/**
 * Exchange rates (docs/decisions.md, "Exchange rates"): every rate fetched, per euro, with its source, the day it is
 * for and when it was fetched; and the operator's pinned rates, which win over fetched ones until unpinned. Rates are
 * decimal text, never floating point.
 */
export const ExchangeRates1765238400000 = sqlMigration('ExchangeRates1765238400000', {
  up: [
    `CREATE TABLE exchange_rates (
       source text NOT NULL,
       currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
       as_of_date date NOT NULL,
       per_euro text NOT NULL CHECK (per_euro ~ '^[0-9]+(\\.[0-9]+)?$'),
       fetched_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (source, currency, as_of_date)
     )`,
    'CREATE INDEX exchange_rates_latest_idx ON exchange_rates (currency, as_of_date DESC)',
    `CREATE TABLE exchange_rate_pins (
       base text NOT NULL CHECK (base ~ '^[A-Z]{3}$'),
       quote text NOT NULL CHECK (quote ~ '^[A-Z]{3}$'),
       rate text NOT NULL CHECK (rate ~ '^[0-9]+(\\.[0-9]+)?$'),
       reason text NOT NULL,
       pinned_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (base, quote),
       CHECK (base <> quote)
     )`,
  ],
  down: ['DROP TABLE exchange_rate_pins', 'DROP TABLE exchange_rates'],
});
