/** Standalone entry for `npm run sandbox-supplier`. Env: SANDBOX_PORT (4010), SANDBOX_HOST, SANDBOX_CONTROL=1, SANDBOX_SEED, SANDBOX_AUTO_SHIP_MS, SANDBOX_CREATE_HANG_MS, SANDBOX_LOG_LEVEL. */
import { startSandboxSupplier } from './index';

function intEnv(name: string, fallback?: number): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return Number(raw);
}

async function main(): Promise<void> {
  const control = process.env.SANDBOX_CONTROL === '1';
  const running = await startSandboxSupplier({
    port: intEnv('SANDBOX_PORT', 4010),
    host: process.env.SANDBOX_HOST || undefined,
    control,
    seed: intEnv('SANDBOX_SEED'),
    autoShipAfterMs: intEnv('SANDBOX_AUTO_SHIP_MS'),
    createHangMs: intEnv('SANDBOX_CREATE_HANG_MS'),
  });
  // One JSON line on stdout: parent processes parse it to find the port.
  process.stdout.write(`${JSON.stringify({ sandboxSupplier: { baseUrl: running.baseUrl, controlEnabled: control } })}\n`);

  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`sandbox supplier failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
