/**
 * `npm run fake-aliexpress`: the AliExpress-format server alone, for trying the adapter by hand. Env:
 * FAKE_ALIEXPRESS_PORT (4030), FAKE_ALIEXPRESS_HOST, FAKE_ALIEXPRESS_APP_KEY, FAKE_ALIEXPRESS_APP_SECRET, FAKE_ALIEXPRESS_SEED.
 */
import { startFakeAliExpress } from './index';

function intEnv(name: string, fallback?: number): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return Number(raw);
}

async function main(): Promise<void> {
  const running = await startFakeAliExpress({
    port: intEnv('FAKE_ALIEXPRESS_PORT', 4030),
    host: process.env.FAKE_ALIEXPRESS_HOST || undefined,
    appKey: process.env.FAKE_ALIEXPRESS_APP_KEY || undefined,
    appSecret: process.env.FAKE_ALIEXPRESS_APP_SECRET || undefined,
    seed: intEnv('FAKE_ALIEXPRESS_SEED'),
  });
  const buyer = running.state.signIn.addBuyer({ nick: 'demo-buyer' });
  // The app secret goes to the terminal only: this server exists for local trials.
  process.stdout.write(
    `${JSON.stringify({ fakeAliExpress: { baseUrl: running.baseUrl, controlUrl: running.controlUrl, appKey: running.appKey, appSecret: running.appSecret, demoBuyerUserId: buyer.userId } })}\n`,
  );
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
  process.stderr.write(`AliExpress-format server failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
