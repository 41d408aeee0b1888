/**
 * The ECB-format exchange rates server as a program (`npm run sandbox-exchange-rates`, or started by the service): see
 * ../program.ts. Env: SANDBOX_EXCHANGE_RATES_PORT (4030), SANDBOX_EXCHANGE_RATES_HOST, SANDBOX_EXCHANGE_RATES_CONTROL
 * (1: mount the control API), SANDBOX_LOG_LEVEL.
 */
import { intEnv, runProgram } from '../program';
import { startSandboxExchangeRates } from './index';

runProgram('sandbox exchange rates', async () => {
  const running = await startSandboxExchangeRates({
    port: intEnv('SANDBOX_EXCHANGE_RATES_PORT', 4030),
    host: process.env.SANDBOX_EXCHANGE_RATES_HOST || undefined,
    control: ['1', 'true'].includes(process.env.SANDBOX_EXCHANGE_RATES_CONTROL ?? ''),
  });
  return { ...running, banner: { sandboxExchangeRates: { baseUrl: running.baseUrl, dailyUrl: running.dailyUrl } } };
});
