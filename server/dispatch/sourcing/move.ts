import crypto from 'node:crypto';
import { failpoint } from '../../platform/failpoints';
import type { SupplierOrderSnapshot } from '../../suppliers/adapter';
import type { SupplierOrderRecords } from '../records';
import type { EarlierOrder, RerouteRequest, RerouteTry, RoutingChoice, SupplierOrder } from '../supplier-order';
import type { Evaluation } from './offer';
import { difference } from './policies';
import type { Offer } from './types';

/** How the part leaves its supplier: routing's choice before anything was sent, or a reroute after a pause. */
export type Leaving =
  | { kind: 'routed'; choice: RoutingChoice; chosenNow: boolean }
  | { kind: 'rerouted'; request: RerouteRequest; tried: RerouteTry[]; answer: SupplierOrderSnapshot | null; proof: EarlierOrder['proof'] };

/**
 * The one move of a part's items to another connection, for routing and rerouting alike, once its supplier was shown
 * to hold no live order for it: in one transaction the items go to the offer's variants and costs (each with its
 * currency), this order is cancelled (routedAway or rerouted), and the new supplier's order is made, remembering every
 * order the part was at. A part already sent at that connection is never changed: the items then form a part of their
 * own. Answers both orders as written; the caller asks for the new one's job.
 */
export async function move(
  ev: Evaluation,
  records: SupplierOrderRecords,
  offer: Offer,
  how: Leaving,
): Promise<{ first: SupplierOrder; second: SupplierOrder }> {
  const { so, conn: from } = ev.work;
  const first = `supplier:${offer.connectionId}`;
  const partKey = (await records.forPart(so.storeId, so.orderId, first)) ? `${first}:${so.id}` : first;
  const id = crypto.randomUUID();
  const landed = {
    currency: offer.currency,
    itemsMinor: offer.itemsMinor,
    shippingMinor: offer.shipping.costMinor,
    totalMinor: offer.totalMinor,
    storeCurrency: offer.storeCurrency,
    storeTotalMinor: offer.storeTotalMinor,
    rate: offer.rate.rate,
    rateSource: offer.rate.source,
    rateAsOf: offer.rate.asOfDate,
  };
  const base = {
    from: { supplierOrderId: so.id, connectionId: from.id, supplierKey: from.supplierKey },
    to: { supplierOrderId: id, connectionId: offer.connectionId, supplierKey: offer.supplierKey, groupKey: partKey }, // the event's wire name
  };
  const left: EarlierOrder = {
    supplierOrderId: so.id,
    connectionId: so.connectionId,
    supplierKey: so.supplierKey,
    supplierOrderNumber: so.supplierOrderNumber,
    supplierSideId: (how.kind === 'rerouted' ? how.answer?.supplierOrderId : null) ?? so.supplierOrderId,
    proof: how.kind === 'rerouted' ? how.proof : 'lookedUp',
  };
  const record = {
    id,
    storeId: so.storeId,
    orderId: so.orderId,
    partKey,
    connectionId: offer.connectionId,
    supplierKey: offer.supplierKey,
    orderNumber: so.orderNumber,
    contractModel: so.contractModel,
    destination: so.destination,
    payNow: how.kind === 'routed' ? so.payNow : false,
    createdByAccountId: so.createdByAccountId,
    createdByKeyId: so.createdByKeyId,
  };
  const items = offer.items.map((i) => ({ id: i.id, supplierVariantId: i.supplierVariantId, linkCostMinor: i.unitCostMinor, linkCurrency: offer.currency }));
  const earlier = [...so.earlier, left];
  if (how.kind === 'routed') {
    const details = { ...base, rule: how.choice.rule, storeTotalMinor: offer.storeTotalMinor, storeCurrency: offer.storeCurrency, landed };
    // The choice goes on with the items: the chosen order is never routed again, and takes the quote while fresh.
    const written = await records.reroute(so, {
      rerouted: { type: 'routedAway', to: id, details },
      record,
      tried: [],
      items,
      routing: how.choice,
      chosenNow: how.chosenNow,
      earlier,
    });
    failpoint('dispatch.routeAfterMove', so.id);
    return written;
  }
  const diff = await difference(ev, offer);
  const details = {
    ...base,
    reason: how.request.reason,
    by: how.request.by,
    costDifferenceMinor: diff.amountMinor,
    currency: diff.currency,
    landed,
    ...(how.tried.length ? { tried: how.tried } : {}),
  };
  const written = await records.reroute(so, {
    rerouted: { type: 'rerouted', actor: how.request.actor, to: id, details, answer: how.answer },
    record,
    tried: [...so.rerouteTried, ...how.tried],
    items,
    earlier,
    // A routed part's choice goes on with it: its order is never routed again (back at the primary, say).
    ...(so.routing ? { routing: so.routing } : {}),
  });
  failpoint('dispatch.rerouteAfterMove', so.id);
  return written;
}
