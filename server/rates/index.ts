import { ExchangeRates1765238400000 } from '../migrations/1765238400000-ExchangeRates';
import { PinOnePerPair1765584000542 } from '../migrations/1765584000542-PinOnePerPair';
import { domainModule, type Platform } from '../platform/domain';
import { ECB_DAILY_URL } from '../platform/config';
import type { Boss } from '../platform/jobs';
import { EcbRatesProvider } from './ecb';
import { RatesUnavailableError } from './provider';
import { RATES_QUEUES, RATES_REFRESH_KEY, RATES_REFRESH_QUEUE } from './queues';
import { ratesRoutes } from './routes';
import { ExchangeRateService } from './service';

export type { ExchangeRatesProvider, RatesSnapshot } from './provider';
export type { Conversion, Rate, RateAnswer, RateUnavailable } from './service';

/** Exchange rates: fetched daily from the reference source (the ECB's, EXCHANGE_RATES_URL), pinned by the operator, looked up and applied. */
export const ratesModule = domainModule({
  name: 'rates',
  needs: [],
  provides: ['rates'],
  queues: RATES_QUEUES,
  migrations: [ExchangeRates1765238400000, PinOnePerPair1765584000542],
  build(p: Platform) {
    const rates = new ExchangeRateService(p.db, new EcbRatesProvider(p.config.exchangeRatesUrl), p.config.exchangeRateMaxAgeDays, p.log);
    return {
      rates,
      routes: ratesRoutes(rates),
      async work(boss: Boss) {
        await boss.work(RATES_REFRESH_QUEUE, async () => {
          try {
            await rates.refresh();
          } catch (err) {
            // The rates stored stay as they are; pg-boss tries again (RATES_QUEUES' retries), then tomorrow's run.
            if (err instanceof RatesUnavailableError) p.log.warn({ err: err.message }, 'exchange rates not fetched; the stored ones stay');
            throw err;
          }
        });
        if (!p.config.exchangeRatesUrl) {
          p.log.info({ ecb: ECB_DAILY_URL }, 'no EXCHANGE_RATES_URL: exchange rates are not fetched (only pinned ones answer)');
          return;
        }
        await boss.schedule(RATES_REFRESH_QUEUE, p.config.exchangeRatesCron, {}, { singletonKey: RATES_REFRESH_KEY });
        // A release started before its migrations ran (docs/scaling.md) finds no table yet: the schedule fetches later.
        if (!(await rates.hasRates().catch(() => true))) await boss.send(RATES_REFRESH_QUEUE, {}, { singletonKey: RATES_REFRESH_KEY });
      },
    };
  },
});
