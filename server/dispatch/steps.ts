import type { SupplierOrder } from './supplier-order';

/** The supplier-side steps of a supplier order. */
export type Step = 'cancel' | 'send' | 'pay' | 'capture' | 'reroute';

/**
 * What is due next, decided from the record alone (never from how the job was started), so a job re-run after any
 * crash finishes the work. The only place the code decides it: the job, the waiter and `transition` ask here. The
 * same rule is the generated column `step_due` (migration DispatchSteps), which the sweeper's index and the runner's
 * look after a batch read; test/dispatch/rules-in-the-database.test.ts checks that the two agree for every state.
 */
export function nextStep(
  so: Pick<
    SupplierOrder,
    'status' | 'cancelRequested' | 'paymentStatus' | 'paymentDue' | 'payRequested' | 'contractModel' | 'captureRequested' | 'rerouteRequest'
  >,
): Step | null {
  if (so.cancelRequested) return 'cancel';
  if (so.status === 'needsReview' && so.rerouteRequest) return 'reroute';
  if (so.status === 'queued') return 'send';
  if (so.status === 'submitted' && so.paymentStatus === 'unpaid' && (so.paymentDue || so.payRequested)) return 'pay';
  if (
    so.contractModel === 'promiseToSell' &&
    so.paymentStatus === 'paid' &&
    !so.captureRequested &&
    ['confirmed', 'processing', 'shipped', 'delivered'].includes(so.status)
  )
    return 'capture';
  return null;
}
