/** `npm run fake-cj`: the CJ-format server alone, for trying the CJ adapter by hand. Env: FAKE_CJ_PORT (4020), FAKE_CJ_HOST, FAKE_CJ_SEED. */
import { intEnv, runProgram } from '../../../server/sandboxes/program';
import { startFakeCj } from './index';

runProgram('CJ-format server', async () => {
  const running = await startFakeCj({ port: intEnv('FAKE_CJ_PORT', 4020), host: process.env.FAKE_CJ_HOST || undefined, seed: intEnv('FAKE_CJ_SEED') });
  return { baseUrl: running.baseUrl, banner: { fakeCj: { baseUrl: running.baseUrl, controlUrl: running.controlUrl } }, close: () => running.close() };
});
