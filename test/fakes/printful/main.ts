/** `npm run fake-printful`: the Printful-format server alone, for trying the adapter by hand. Env: FAKE_PRINTFUL_PORT (4030), FAKE_PRINTFUL_HOST, FAKE_PRINTFUL_ADVANCE_MS, FAKE_PRINTFUL_RETRY_MINUTE_MS. */
import { intEnv, runProgram } from '../../../server/sandboxes/program';
import { startFakePrintful } from './index';

runProgram('Printful-format server', async () => {
  const running = await startFakePrintful({
    port: intEnv('FAKE_PRINTFUL_PORT', 4030),
    host: process.env.FAKE_PRINTFUL_HOST || undefined,
    advanceMs: intEnv('FAKE_PRINTFUL_ADVANCE_MS'),
    retryMinuteMs: intEnv('FAKE_PRINTFUL_RETRY_MINUTE_MS'),
  });
  return { baseUrl: running.baseUrl, banner: { fakePrintful: { baseUrl: running.baseUrl, controlUrl: running.controlUrl } }, close: () => running.close() };
});
