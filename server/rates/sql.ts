import { affected, Queryable, rows } from '../platform/db';

// The rates domain's SQL statements: fetched rates per euro (exchange_rates) and the operator's pins (exchange_rate_pins).

export interface StoredRate {
  currency: string;
  per_euro: string;
  source: string;
  as_of_date: string;
  fetched_at: Date;
}

export interface PinRow {
  base: string;
  quote: string;
  rate: string;
  reason: string;
  pinned_at: Date;
}

/** Keeps one day's fetched rates; fetching the same day again only moves its fetch time. */
export async function storeRates(db: Queryable, source: string, asOfDate: string, perEuro: Map<string, string>): Promise<void> {
  const currencies = [...perEuro.keys()];
  await affected(
    db,
    `INSERT INTO exchange_rates (source, currency, as_of_date, per_euro)
     SELECT $1, c, $2::date, r FROM unnest($3::text[], $4::text[]) AS t(c, r)
     ON CONFLICT (source, currency, as_of_date) DO UPDATE SET per_euro = EXCLUDED.per_euro, fetched_at = now()`,
    [source, asOfDate, currencies, currencies.map((c) => perEuro.get(c)!)],
  );
}

/** The newest fetched rate per euro of each currency asked for, as of `asOfDate` (or today). */
export async function latestPerEuro(db: Queryable, currencies: string[], asOfDate: string | null): Promise<StoredRate[]> {
  return rows<StoredRate>(
    db,
    `SELECT DISTINCT ON (currency) currency, per_euro, source, to_char(as_of_date, 'YYYY-MM-DD') AS as_of_date, fetched_at
       FROM exchange_rates WHERE currency = ANY($1::text[]) AND ($2::date IS NULL OR as_of_date <= $2::date)
      ORDER BY currency, as_of_date DESC, fetched_at DESC`,
    [currencies, asOfDate],
  );
}

export async function anyRateStored(db: Queryable): Promise<boolean> {
  return (await rows(db, 'SELECT 1 FROM exchange_rates LIMIT 1')).length > 0;
}

export async function pinOf(db: Queryable, base: string, quote: string): Promise<PinRow | null> {
  const [row] = await rows<PinRow>(db, 'SELECT base, quote, rate, reason, pinned_at FROM exchange_rate_pins WHERE base = $1 AND quote = $2', [base, quote]);
  return row ?? null;
}

export async function savePin(db: Queryable, base: string, quote: string, rate: string, reason: string): Promise<PinRow> {
  const [row] = await rows<PinRow>(
    db,
    `INSERT INTO exchange_rate_pins (base, quote, rate, reason) VALUES ($1, $2, $3, $4)
     ON CONFLICT (base, quote) DO UPDATE SET rate = EXCLUDED.rate, reason = EXCLUDED.reason, pinned_at = now()
     RETURNING base, quote, rate, reason, pinned_at`,
    [base, quote, rate, reason],
  );
  return row;
}

export async function removePin(db: Queryable, base: string, quote: string): Promise<boolean> {
  return (await affected(db, 'DELETE FROM exchange_rate_pins WHERE base = $1 AND quote = $2', [base, quote])) > 0;
}
