/**
 * Exchange rates from the ECB-format server (docs/decisions.md, "Exchange rates"), over real HTTP into real Postgres:
 * fetched at start by the daily job and kept with source, day and fetch time; looked up as cross rates through EUR;
 * refused when stale; pinned by the operator and unpinned; and a fault of the source leaves what is stored as it was.
 */
import { Pool } from 'pg';
import { openDatabase } from '../../server/composition';
import { createLogger } from '../../server/platform/logger';
import { EcbRatesProvider } from '../../server/rates/ecb';
import { RatesUnavailableError } from '../../server/rates/provider';
import { ExchangeRateService } from '../../server/rates/service';
import { startSandboxExchangeRates, type RunningSandboxExchangeRates } from '../../server/sandboxes/exchange-rates';
import { asTests, createDatabase, leakScanTest, type Service, startService } from '../support/harness';

const DAY_MS = 86_400_000;
const day = (offsetDays = 0) => new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);
const RATES = { USD: '1.0705', JPY: '171.94', KWD: '0.32810', GBP: '0.84638' };

let ecb: RunningSandboxExchangeRates;
const control = async (method: string, p: string, body?: unknown) => {
  const res = await fetch(`${ecb.baseUrl}/control${p}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`ECB-format server control ${method} ${p}: ${res.status}`);
  return res.json();
};

beforeAll(async () => {
  process.env.SANDBOX_LOG_LEVEL ??= 'silent';
  ecb = await startSandboxExchangeRates({ control: true });
});
afterAll(() => ecb.close());

describe('the service', () => {
  let svc: Service;
  beforeAll(async () => {
    await control('PUT', '/rates', { date: day(-1), rates: RATES });
    svc = await startService({ label: 'exchange-rates', env: { EXCHANGE_RATES_URL: ecb.dailyUrl } });
  });
  afterAll(() => svc.stop());
  const operator = (method: string, p: string, body?: unknown, token = svc.operatorToken) =>
    svc.call(method, `/api/operator/exchange-rates${p}`, { body, headers: token ? { 'X-Operator-Token': token } : {} });

  test('with none stored, the job fetches the rates at start and keeps each with its source, day and fetch time; it runs daily', async () => {
    const started = Date.now();
    await svc.waitForLog((l) => l.msg === 'exchange rates fetched', 60000);
    const { rows } = await svc.db.query(
      `SELECT source, currency, to_char(as_of_date, 'YYYY-MM-DD') AS as_of_date, per_euro, fetched_at FROM exchange_rates ORDER BY currency`,
    );
    expect(rows.map((r) => [r.source, r.currency, r.as_of_date, r.per_euro])).toEqual([
      ['ecb', 'GBP', day(-1), '0.84638'],
      ['ecb', 'JPY', day(-1), '171.94'],
      ['ecb', 'KWD', day(-1), '0.3281'],
      ['ecb', 'USD', day(-1), '1.0705'],
    ]);
    for (const r of rows) expect(Math.abs(r.fetched_at.getTime() - started)).toBeLessThan(120000);
    const schedule = await svc.db.query(`SELECT cron FROM pgboss.schedule WHERE name = 'exchange-rates.refresh'`);
    expect(schedule.rows).toEqual([{ cron: '30 16 * * *' }]);
  });

  test('a look-up answers the cross rate through EUR with its source, day and fetch time; a stale one answers unavailable', async () => {
    await svc.waitForLog((l) => l.msg === 'exchange rates fetched', 60000);
    const usdJpy = await operator('GET', '/USD/JPY');
    expect(usdJpy.status).toBe(200);
    expect(usdJpy.body.result).toEqual({
      available: true,
      from: 'USD',
      to: 'JPY',
      rate: '160.6165343298',
      source: 'ecb',
      asOfDate: day(-1),
      fetchedAt: expect.any(String),
    });
    expect((await operator('GET', '/EUR/GBP')).body.result).toMatchObject({ rate: '0.84638', source: 'ecb' });
    expect((await operator('GET', '/USD/USD')).body.result).toMatchObject({ rate: '1', source: 'identity' });
    // EXCHANGE_RATE_MAX_AGE_DAYS is 4: four days after the rates' day they are used, five days after they are not.
    expect((await operator('GET', `/USD/JPY?asOf=${day(3)}`)).body.result).toMatchObject({ available: true, asOfDate: day(-1) });
    expect((await operator('GET', `/USD/JPY?asOf=${day(4)}`)).body.result).toEqual({
      available: false,
      reason: 'stale',
      from: 'USD',
      to: 'JPY',
      asOfDate: day(-1),
    });
    expect((await operator('GET', `/USD/JPY?asOf=${day(-30)}`)).body.result).toEqual({
      available: false,
      reason: 'missing',
      from: 'USD',
      to: 'JPY',
      asOfDate: null,
    });
    expect((await operator('GET', '/USD/SEK')).body.result).toMatchObject({ available: false, reason: 'missing' });
  });

  test('a pinned rate wins over the fetched one until unpinned; only the operator pins', async () => {
    await svc.waitForLog((l) => l.msg === 'exchange rates fetched', 60000);
    expect((await operator('PUT', '/USD/JPY', { rate: '150.00', reason: 'test' }, '')).status).toBe(401);
    expect((await operator('PUT', '/USD/JPY', { rate: '1.5e2', reason: 'not a decimal' })).status).toBe(400);
    expect((await operator('PUT', '/USD/USD', { rate: '1', reason: 'same' })).body.error.code).toBe('samePair');
    expect((await operator('PUT', '/USD/XYZ', { rate: '1', reason: 'unknown' })).body.error.code).toBe('unknownCurrency');
    const pinned = await operator('PUT', '/USD/JPY', { rate: '150.00', reason: 'agreed with the supplier for June' });
    expect(pinned.status).toBe(200);
    expect(pinned.body.result).toEqual({ base: 'USD', quote: 'JPY', rate: '150', reason: 'agreed with the supplier for June', pinnedAt: expect.any(String) });
    expect((await operator('GET', '/USD/JPY')).body.result).toEqual({
      available: true,
      from: 'USD',
      to: 'JPY',
      rate: '150',
      source: 'pinned',
      asOfDate: day(),
      fetchedAt: null,
    });
    // A pin governs both ways (issue 53, point 8): JPY→USD is its inverse, 1/150 rounded half up once to ten decimals,
    // not the fetched rate that disagrees with it; a pin of the other way is refused while this one stands.
    expect((await operator('GET', '/JPY/USD')).body.result).toEqual({
      available: true,
      from: 'JPY',
      to: 'USD',
      rate: '0.0066666667',
      source: 'pinned',
      asOfDate: day(),
      fetchedAt: null,
    });
    const opposite = await operator('PUT', '/JPY/USD', { rate: '0.0062', reason: 'the other way' });
    expect([opposite.status, opposite.body.error.code]).toEqual([409, 'oppositePinned']);
    expect((await svc.db.query('SELECT base, quote FROM exchange_rate_pins')).rows).toEqual([{ base: 'USD', quote: 'JPY' }]);
    const unpinned = await operator('DELETE', '/USD/JPY');
    expect(unpinned.body.result).toEqual({ base: 'USD', quote: 'JPY', unpinned: true });
    expect((await operator('GET', '/USD/JPY')).body.result).toMatchObject({ source: 'ecb', rate: '160.6165343298' });
    expect((await operator('GET', '/JPY/USD')).body.result).toMatchObject({ source: 'ecb', rate: '0.0062260091' });
    expect((await operator('DELETE', '/USD/JPY')).status).toBe(404);
  });
});

describe('the lookup service over the ECB-format server', () => {
  const db = (async () => {
    const ds = openDatabase(await createDatabase('exchange-rates-service'));
    await ds.initialize();
    return ds;
  })();
  let rates: ExchangeRateService;
  let pool: Pool;
  beforeAll(async () => {
    const ds = await db;
    pool = new Pool({ connectionString: asTests((ds.options as { url: string }).url), max: 1 });
    rates = new ExchangeRateService(ds, new EcbRatesProvider(ecb.dailyUrl, 500), 4, createLogger('silent'));
  });
  afterAll(async () => {
    await pool.end();
    await (await db).destroy();
  });
  beforeEach(async () => {
    await control('PUT', '/rates', { date: day(), rates: RATES });
    await control('DELETE', '/faults');
  });
  const stored = async () =>
    (
      await pool.query(
        `SELECT source, currency, to_char(as_of_date, 'YYYY-MM-DD') AS d, per_euro, fetched_at FROM exchange_rates ORDER BY currency, as_of_date`,
      )
    ).rows;

  test("JPY, USD and KWD amounts convert exactly in each currency's minor units, with the rate, source and day", async () => {
    await rates.refresh();
    expect(await rates.convert(10000, 'JPY', 'USD')).toEqual({
      available: true,
      amountMinor: 6226,
      currency: 'USD',
      rate: '0.0062260091',
      source: 'ecb',
      asOfDate: day(),
      fetchedAt: expect.any(String),
    });
    expect(await rates.convert(4916, 'USD', 'JPY')).toMatchObject({ amountMinor: 7896, rate: '160.6165343298' });
    // 1.234 KWD at 3.2626… USD per KWD = 4.0261… USD.
    expect(await rates.convert(1234, 'KWD', 'USD')).toMatchObject({ amountMinor: 403, rate: '3.262724779' });
    expect(await rates.convert(100, 'USD', 'KWD')).toMatchObject({ amountMinor: 306, currency: 'KWD' });
    expect(await rates.convert(500, 'EUR', 'JPY')).toMatchObject({ amountMinor: 860, rate: '171.94' });
    expect(await rates.convert(500, 'JPY', 'SEK')).toEqual({ available: false, reason: 'missing', from: 'JPY', to: 'SEK', asOfDate: null });
  });

  test('a fault answers RatesUnavailableError and nothing stored changes, not even the fetch time', async () => {
    await rates.refresh();
    const before = await stored();
    for (const fault of [{ unavailable: 1 }, { timeout: 1 }, { malformed: 1 }]) {
      await control('PUT', '/rates', { date: day(), rates: { ...RATES, USD: '2.0000' } });
      await control('POST', '/faults', fault);
      await expect(rates.refresh()).rejects.toThrow(RatesUnavailableError);
      expect(await stored()).toEqual(before);
      expect(await rates.rateFor('EUR', 'USD')).toMatchObject({ rate: '1.0705', source: 'ecb' });
    }
  });

  test('a rate older than the maximum age is refused; an older day answers a look-up as of that day', async () => {
    await rates.refresh();
    await control('PUT', '/rates', { date: day(-10), rates: { ...RATES, USD: '1.2' } });
    await rates.refresh();
    expect(await rates.rateFor('EUR', 'USD')).toMatchObject({ rate: '1.0705', asOfDate: day() });
    expect(await rates.rateFor('EUR', 'USD', day(-8))).toMatchObject({ available: true, rate: '1.2', asOfDate: day(-10) });
    expect(await rates.rateFor('EUR', 'USD', day(-5))).toEqual({ available: false, reason: 'stale', from: 'EUR', to: 'USD', asOfDate: day(-10) });
    expect(await rates.convert(100, 'USD', 'JPY', day(5))).toEqual({ available: false, reason: 'stale', from: 'USD', to: 'JPY', asOfDate: day() });
  });
});

leakScanTest();
