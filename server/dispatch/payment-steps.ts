import { failpoint } from '../platform/failpoints';
import type { SupplierGateway } from '../connections';
import type { SupplierOrderSnapshot } from '../suppliers/adapter';
import { SupplierError } from '../suppliers/errors';
import type { CaptureOutcome } from '../payments';
import type { LandedCost } from './landed';
import type { Work } from './work';
import { pauseOf, Refusal } from './sourcing';
import { cleanReviewMessage, reasonFor } from './review-reasons';
import type { SupplierOrder } from './supplier-order';
import type { DispatchEvent } from './dispatch-event';

/** The dispatch job's writes (./job.ts) that the payment steps record through. */
export interface StepWrites {
  change(so: SupplierOrder, e: DispatchEvent): Promise<SupplierOrder>;
  answered(
    so: SupplierOrder,
    answer: SupplierOrderSnapshot,
    history: string,
    details?: Record<string, unknown>,
    more?: { paymentDue?: boolean; payRequestDone?: boolean },
    landed?: { storeCurrency?: string; confirmation?: LandedCost },
  ): Promise<SupplierOrder>;
}

/** Asks the store's payment provider to capture the shopper's payment (the payments domain); throws when it cannot be reached. */
export interface ShopperCapture {
  capture(storeId: string, orderId: string): Promise<CaptureOutcome>;
}

/** Reads the supplier's own status first: an order already paid there is recorded, never paid again. */
export async function payAtSupplier(w: Work, gateway: SupplierGateway, job: StepWrites): Promise<SupplierOrder> {
  const { so, conn } = w;
  const settled = { payRequestDone: true };
  try {
    const before = await gateway.call(conn, (a, ctx) => a.getOrder(ctx, so.supplierOrderId!));
    const landed = { storeCurrency: w.storeCurrency };
    if (before.paid) return job.answered(so, before, 'alreadyPaidAtSupplier', {}, settled, landed);
    failpoint('dispatch.beforePay', so.id);
    const paid = await gateway.call(conn, (a, ctx) => a.payOrder(ctx, so.supplierOrderId!));
    failpoint('dispatch.afterPay', so.id);
    return job.answered(so, paid, 'paid', so.payNow ? { payNow: true } : {}, settled, landed);
  } catch (err) {
    if (!(err instanceof SupplierError)) throw err;
    if (err.kind === 'alreadyPaid')
      return job.answered(so, await gateway.call(conn, (a, ctx) => a.getOrder(ctx, so.supplierOrderId!)), 'alreadyPaidAtSupplier', {}, settled, {
        storeCurrency: w.storeCurrency,
      });
    const reason = reasonFor(err);
    if (reason) return job.change(so, pauseOf(w, new Refusal(reason, cleanReviewMessage(err.message))));
    throw err; // a passing error: the order stays submitted, the queue retries the job
  }
}

/**
 * Promise to sell: once the supplier accepted, the payment provider is asked to capture the shopper's payment. Its
 * idempotency key makes a request repeated after a crash between asking and recording charge once; a refusal
 * pauses at once; a provider that cannot be reached throws, and the queue asks again after a backoff.
 */
export async function captureFromShopper({ so }: Work, shopper: ShopperCapture, job: Pick<StepWrites, 'change'>): Promise<SupplierOrder> {
  failpoint('dispatch.beforeCapture', so.id);
  const outcome = await shopper.capture(so.storeId, so.orderId);
  failpoint('dispatch.afterCapture', so.id);
  return job.change(
    so,
    outcome.kind === 'requested'
      ? { type: 'captureRequested', reference: outcome.reference }
      : { type: 'captureFailed', message: cleanReviewMessage(outcome.message) },
  );
}
