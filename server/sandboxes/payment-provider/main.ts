/**
 * The sandbox payment provider as a program (`npm run sandbox-payments`, or started by the service): see
 * ../program.ts. Env: SANDBOX_PAYMENTS_PORT (4020), SANDBOX_PAYMENTS_HOST, SANDBOX_PAYMENTS_CONTROL (1: mount the
 * fault-injection control API), SANDBOX_LOG_LEVEL.
 */
import { intEnv, runProgram } from '../program';
import { startSandboxPayments } from './index';

runProgram('sandbox payment provider', async () => {
  const running = await startSandboxPayments({
    port: intEnv('SANDBOX_PAYMENTS_PORT', 4020),
    host: process.env.SANDBOX_PAYMENTS_HOST || undefined,
    control: ['1', 'true'].includes(process.env.SANDBOX_PAYMENTS_CONTROL ?? ''),
  });
  return { ...running, banner: { sandboxPayments: { baseUrl: running.baseUrl } } };
});
