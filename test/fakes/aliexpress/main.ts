/**
 * `npm run fake-aliexpress`: the AliExpress-format server alone, for trying the adapter by hand. Env:
 * FAKE_ALIEXPRESS_PORT (4030), FAKE_ALIEXPRESS_HOST, FAKE_ALIEXPRESS_APP_KEY, FAKE_ALIEXPRESS_APP_SECRET, FAKE_ALIEXPRESS_SEED.
 */
import { intEnv, runProgram } from '../../../server/sandboxes/program';
import { startFakeAliExpress } from './index';

runProgram('AliExpress-format server', async () => {
  const running = await startFakeAliExpress({
    port: intEnv('FAKE_ALIEXPRESS_PORT', 4030),
    host: process.env.FAKE_ALIEXPRESS_HOST || undefined,
    appKey: process.env.FAKE_ALIEXPRESS_APP_KEY || undefined,
    appSecret: process.env.FAKE_ALIEXPRESS_APP_SECRET || undefined,
    seed: intEnv('FAKE_ALIEXPRESS_SEED'),
  });
  const buyer = running.state.signIn.addBuyer({ nick: 'demo-buyer' });
  // The app secret goes to the terminal only: this server exists for local trials.
  const banner = {
    fakeAliExpress: {
      baseUrl: running.baseUrl,
      controlUrl: running.controlUrl,
      appKey: running.appKey,
      appSecret: running.appSecret,
      demoBuyerUserId: buyer.userId,
    },
  };
  return { baseUrl: running.baseUrl, banner, close: () => running.close() };
});
