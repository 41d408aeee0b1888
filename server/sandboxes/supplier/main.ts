/**
 * The sandbox supplier as a program (`npm run sandbox-supplier`, or started by the service): see ../program.ts.
 * Env: SANDBOX_PORT (4010), SANDBOX_HOST, SANDBOX_CONTROL=1, SANDBOX_SEED, SANDBOX_AUTO_SHIP_MS, SANDBOX_CREATE_HANG_MS,
 * SANDBOX_LOG_LEVEL.
 */
import { intEnv, runProgram } from '../program';
import { startSandboxSupplier } from './index';

runProgram('sandbox supplier', async () => {
  const control = process.env.SANDBOX_CONTROL === '1';
  const running = await startSandboxSupplier({
    port: intEnv('SANDBOX_PORT', 4010),
    host: process.env.SANDBOX_HOST || undefined,
    control,
    seed: intEnv('SANDBOX_SEED'),
    autoShipAfterMs: intEnv('SANDBOX_AUTO_SHIP_MS'),
    createHangMs: intEnv('SANDBOX_CREATE_HANG_MS'),
  });
  return { ...running, banner: { sandboxSupplier: { baseUrl: running.baseUrl, controlEnabled: control } } };
});
