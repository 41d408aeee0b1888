/** Injected faults: what the control API makes the sandbox do wrong next (slow, down, refusing, silent). */
import { invalidRequest } from './errors';
import type { Faults } from './types';
import { bodyObject, optionalBool, optionalInt, optionalString, type Json } from './validate';

export function noFaults(): Faults {
  return {
    latencyMs: 0,
    failNext: 0,
    timeoutAfterCreateNext: 0,
    refuseNext: null,
    rejectKeys: false,
    unavailableAccounts: [],
    silentAccounts: [],
    accountLatencyMs: {},
    shippingSurchargeMinor: 0,
  };
}

const MAX_LATENCY_MS = 120_000;

export function faultView(faults: Faults): Faults {
  return {
    ...faults,
    refuseNext: faults.refuseNext ? { ...faults.refuseNext } : null,
    unavailableAccounts: [...faults.unavailableAccounts],
    silentAccounts: [...faults.silentAccounts],
    accountLatencyMs: { ...faults.accountLatencyMs },
  };
}

/** The fault set after a POST /control/faults: only the fields given change. */
export function mergeFaults(current: Faults, body: Json): Faults {
  const next = faultView(current);
  const latencyMs = optionalInt(body, 'latencyMs');
  if (latencyMs !== undefined) {
    if (latencyMs > MAX_LATENCY_MS) throw invalidRequest(`latencyMs must be at most ${MAX_LATENCY_MS}`);
    next.latencyMs = latencyMs;
  }
  const failNext = optionalInt(body, 'failNext');
  if (failNext !== undefined) next.failNext = failNext;
  const timeoutAfterCreateNext = optionalInt(body, 'timeoutAfterCreateNext');
  if (timeoutAfterCreateNext !== undefined) next.timeoutAfterCreateNext = timeoutAfterCreateNext;
  const surcharge = optionalInt(body, 'shippingSurchargeMinor');
  if (surcharge !== undefined) next.shippingSurchargeMinor = surcharge;
  const rejectKeys = optionalBool(body, 'rejectKeys');
  if (rejectKeys !== undefined) next.rejectKeys = rejectKeys;
  if (body.unavailableAccounts !== undefined) {
    if (!Array.isArray(body.unavailableAccounts) || !body.unavailableAccounts.every((a: unknown) => typeof a === 'string'))
      throw invalidRequest('unavailableAccounts must be an array of account ids');
    next.unavailableAccounts = [...(body.unavailableAccounts as string[])];
  }
  if (body.accountLatencyMs !== undefined) {
    const given = bodyObject(body.accountLatencyMs);
    next.accountLatencyMs = {};
    for (const [account, ms] of Object.entries(given)) {
      if (!Number.isInteger(ms) || (ms as number) < 0 || (ms as number) > MAX_LATENCY_MS)
        throw invalidRequest(`accountLatencyMs.${account} must be an integer from 0 to ${MAX_LATENCY_MS}`);
      next.accountLatencyMs[account] = ms as number;
    }
  }
  if (body.silentAccounts !== undefined) {
    if (!Array.isArray(body.silentAccounts) || !body.silentAccounts.every((a: unknown) => typeof a === 'string'))
      throw invalidRequest('silentAccounts must be an array of account ids');
    next.silentAccounts = [...(body.silentAccounts as string[])];
  }
  if (body.refuseNext !== undefined) {
    if (body.refuseNext === null) next.refuseNext = null;
    else {
      const refuse = bodyObject(body.refuseNext);
      const count = optionalInt(refuse, 'count') ?? 1;
      const message = optionalString(refuse, 'message', 500, 'refuseNext.message') || 'Order refused by supplier';
      next.refuseNext = count > 0 ? { count, message } : null;
    }
  }
  return next;
}
