/** `npm run fake-cj`: the CJ-format server alone, for trying the CJ adapter by hand. Env: FAKE_CJ_PORT (4020), FAKE_CJ_HOST, FAKE_CJ_SEED. */
import { startFakeCj } from './index';

function intEnv(name: string, fallback?: number): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return Number(raw);
}

async function main(): Promise<void> {
  const running = await startFakeCj({ port: intEnv('FAKE_CJ_PORT', 4020), host: process.env.FAKE_CJ_HOST || undefined, seed: intEnv('FAKE_CJ_SEED') });
  process.stdout.write(`${JSON.stringify({ fakeCj: { baseUrl: running.baseUrl, controlUrl: running.controlUrl } })}\n`);
  const stop = (): void => {
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`CJ-format server failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
