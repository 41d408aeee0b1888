import { ownRecordsKeyId } from '../identity/permissions';
import { Reply, RequestContext } from '../platform/http/route';
import { object, params, uuid } from '../platform/http/schemas';
import type { CommandOptions, Outcome } from './commands';
import { supplierOrderSchema } from './schemas';
import type { SupplierOrderReads } from './views';

// What the supplier order routes share: paths, parameters, the two answers of a command, the caller's preference.

export const BASE = '/api/store-suppliers';
export const TAG = 'Supplier orders';
export const partParams = object(
  { storeId: uuid, orderId: uuid, groupKey: { type: 'string', pattern: '^(store|supplier:[0-9a-fA-F-]{36}(:[0-9a-fA-F-]{36})?)$' } },
  ['storeId', 'orderId', 'groupKey'],
);
export const soParams = params(['storeId', 'supplierOrderId']);
export const settled = {
  status: 200,
  schema: supplierOrderSchema,
  description:
    'The supplier order once the dispatch job acted on it (the service waits up to DISPATCH_WAIT_MS, woken the moment the record changes); a paused one (status needsReview, with reviewReason, reviewMessage and retryable) also answers 200',
};
export const stillWorking: [number, { description: string; content: unknown }] = [
  202,
  {
    description:
      'The job had not finished within the wait, or the request asked not to wait (`Prefer: respond-async`): the supplier order as it is now; read it again to follow it',
    content: { 'application/json': { schema: { type: 'object', properties: { result: supplierOrderSchema }, required: ['result'] } } },
  },
];
export const preferHeader = {
  name: 'Prefer',
  in: 'header',
  required: false,
  description: '`respond-async`: answer 202 at once with the supplier order as it is (status queued while the job waits), instead of waiting for the job',
  schema: { type: 'string', maxLength: 200 },
};

export type Ctx = RequestContext<{ storeId: string }, unknown, unknown>;

/** RFC 7240: the caller prefers an answer at once to waiting for the job. */
function prefersAsync(headers: Record<string, string | string[] | undefined>): boolean {
  const v = headers.prefer;
  return (Array.isArray(v) ? v.join(',') : (v ?? '')).split(/[,;]/).some((p) => p.trim().toLowerCase() === 'respond-async');
}

/** A command's answer as the caller sees it: 200 once the job acted, 202 while it works; the customer only to who may see it. */
export function answering(reads: SupplierOrderReads) {
  const showCustomer = (ctx: Ctx) => !!ctx.store?.permissions.has('customers.view');
  const opts = (ctx: Ctx): CommandOptions => ({ respondAsync: prefersAsync(ctx.headers) });
  const answer = async (ctx: Ctx, out: Outcome) => {
    const [view] = await reads.views([out.so], showCustomer(ctx));
    return new Reply(out.settled ? 200 : 202, view);
  };
  const load = (ctx: RequestContext<{ storeId: string; supplierOrderId: string }, unknown, unknown>) =>
    reads.get(ctx.params.storeId, ctx.params.supplierOrderId, ownRecordsKeyId(ctx.caller));
  return { showCustomer, opts, answer, load };
}
