import type { HealthResult, VerifiedAccount } from './adapter';
import { SupplierError } from './errors';

/**
 * A health check made of a credentials check, timed. SupplierError messages are already scrubbed; any other error is
 * a bug whose text is not trusted, so `unexpected` is said instead.
 */
export async function healthFrom(verify: () => Promise<VerifiedAccount>, unexpected: string): Promise<HealthResult> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const { accountLabel } = await verify();
    return { ok: true, latencyMs: latency(), message: `Connected as ${accountLabel}` };
  } catch (err) {
    return { ok: false, latencyMs: latency(), message: err instanceof SupplierError ? err.message : unexpected };
  }
}
