// When a delivery or a reaction that failed is tried again, and how long a claim of one holds.

/** Exponential backoff with equal jitter: half of base × 2ⁿ⁻¹ (at most the cap), plus up to as much again at random. */
export function retryDelayMs(failures: number, baseMs: number, maxMs: number, random = Math.random): number {
  const full = Math.min(maxMs, baseMs * 2 ** Math.min(failures - 1, 40));
  return Math.round(full / 2 + (random() * full) / 2);
}

/** How long a claim holds: longer than any attempt, so only a dead process's claims lapse. */
export const leaseMsOf = (timeoutMs: number) => 2 * timeoutMs + 5000;
