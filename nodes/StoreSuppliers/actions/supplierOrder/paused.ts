import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { optionalFields } from '../common.descriptions';
import { REVIEW_REASON_WORDS, type ReviewReason } from '../../vocabulary';

/** What a program may do about each review reason (spec: Review reasons; the words are the vocabulary's). */
const adviceFor = (reason: string): string | undefined =>
  Object.hasOwn(REVIEW_REASON_WORDS, reason) ? REVIEW_REASON_WORDS[reason as ReviewReason].advice : undefined;

/** The supplier order the error is about, when it is a pause (kept on the error for Continue On Fail). */
export function supplierOrderOf(error: unknown): IDataObject | undefined {
  // Read from the context, not by class: n8n may hand the node's error back as its own copy.
  const so = ((error as { context?: IDataObject } | undefined)?.context as IDataObject | undefined)?.supplierOrder;
  return typeof so === 'object' && so !== null ? (so as IDataObject) : undefined;
}

/** What a pause item carries beside its error message. */
export function pauseOf(so: IDataObject): IDataObject {
  return { reviewReason: so.reviewReason ?? null, retryable: so.retryable ?? null, supplierOrder: so };
}

/**
 * A reroute asked for and not yet acted on (the answer a 202 gives while the job works, or a pause the connection's
 * rule sends to the backups): the order is on its way to a backup supplier, not stopped for a person yet.
 */
function reroutePending(so: IDataObject): boolean {
  const events = Array.isArray(so.events) ? (so.events as IDataObject[]) : [];
  const last = events[events.length - 1];
  return last?.type === 'rerouteRequested' || (last?.type === 'paused' && !!(last.details as IDataObject | undefined)?.reroute);
}

/**
 * Submit, retry and pay answer 200 even when the supplier order stopped for review; as the spec asks of
 * SDKs, that is an error here, naming the reason and the supplier's message.
 */
function failIfPaused(this: IExecuteFunctions, so: IDataObject, itemIndex: number): IDataObject {
  if (so?.status !== 'needsReview' || reroutePending(so)) return so;
  const reason = String(so.reviewReason ?? 'unknown');
  const message = so.reviewMessage ? String(so.reviewMessage) : 'no message';
  const error = new NodeOperationError(this.getNode(), `Supplier order paused for review: ${reason}: ${message}`, {
    itemIndex,
    description: [
      `Supplier order ${String(so._id)} (store order ${String(so.orderNumber)}, attempt ${String(so.attempt)}) needs review.`,
      `reviewReason: ${reason}; retryable: ${String(so.retryable)}.`,
      `reviewMessage: ${message}`,
      adviceFor(reason) ?? 'Read the supplier order again to see why.',
    ].join('\n'),
  });
  error.context.supplierOrder = so;
  throw error;
}

/**
 * The one paused-order handler, for submit, retry, reroute and pay: calls the route with the item's path and
 * the switch it was given (`{ payNow: true }`; nothing when it is not set) or the body given, and answers the
 * supplier order, or fails with the pause (a reroute no alternate could take leaves the pause standing).
 */
export async function sendSupplierOrder(
  this: IExecuteFunctions,
  itemIndex: number,
  route: Route,
  params: Record<string, string>,
  switchName?: string,
  given?: IDataObject,
): Promise<IDataObject> {
  const options: IDataObject = switchName ? this.getNodeParameter('options', itemIndex, {}) : {};
  const body = switchName ? (options[switchName] === undefined ? {} : { [switchName]: Boolean(options[switchName]) }) : given;
  const so = (await callRoute.call(this, route, params, { body, itemIndex })) as IDataObject;
  return failIfPaused.call(this, so, itemIndex);
}

/** The Options of submit and retry: one switch, off unless set. */
export function switchOptions(name: string, displayName: string, description: string): INodeProperties {
  return optionalFields('options', [{ displayName, name, type: 'boolean', default: false, description }]);
}
