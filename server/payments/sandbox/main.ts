/**
 * Standalone entry for `npm run sandbox-payments`. Env: SANDBOX_PAYMENTS_PORT (4020), SANDBOX_PAYMENTS_HOST,
 * SANDBOX_PAYMENTS_CONTROL (1: mount the fault-injection control API), SANDBOX_LOG_LEVEL.
 */
import { startSandboxPayments } from './index';

async function main(): Promise<void> {
  const raw = process.env.SANDBOX_PAYMENTS_PORT;
  if (raw !== undefined && raw !== '' && !/^\d+$/.test(raw)) throw new Error(`SANDBOX_PAYMENTS_PORT must be a port number, got "${raw}"`);
  const running = await startSandboxPayments({ port: raw ? Number(raw) : 4020, host: process.env.SANDBOX_PAYMENTS_HOST || undefined, control: ['1', 'true'].includes(process.env.SANDBOX_PAYMENTS_CONTROL ?? '') });
  // One JSON line on stdout: parent processes parse it to find the port.
  process.stdout.write(`${JSON.stringify({ sandboxPayments: { baseUrl: running.baseUrl } })}\n`);
  const stop = () => void running.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`sandbox payment provider failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
