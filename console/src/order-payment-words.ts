/**
 * What the order page's payment card says of the shopper's payment: the payment provider's word, who pays the
 * supplier after it, charging the shopper under promise to sell, and what needs a person's attention.
 */
import { paysByItself, type Automation } from './automation.js';
import { money } from './format.js';
import type { PaymentProviderView, StoreOrder } from './types.js';

export type SupplierPart = { supplier: string; automation?: Automation };

export const CAPTURE_BADGE: Record<CaptureStage, string> = {
  waiting: 'waiting',
  authorised: 'authorised',
  asked: 'capture asked',
  captured: 'captured',
  failed: 'capture failed',
};
export const ATTENTION: Record<string, string> = {
  paymentFailedAfterPaid:
    "Needs attention: the payment provider reported the shopper's payment failed after it was paid. The supplier may be paid and the goods on their way: decide with the shopper what happens to the order.",
  refundedAfterPaid:
    "Needs attention: the payment provider refunded the shopper's payment after it was paid. The supplier may be paid and the goods on their way: decide what happens to the order.",
  paymentFailedAfterSupplierPaid:
    "Needs attention: the shopper's payment failed after the supplier was paid on its authorisation. Decide with the shopper what happens to the order.",
  refundedAfterSupplierPaid:
    "Needs attention: the payment provider refunded the shopper's authorised payment after the supplier was paid. Decide what happens to the order.",
  captureRefusedAfterShipped:
    'Needs attention: the payment provider refused to charge the shopper after the supplier shipped. The goods are on their way: decide with the shopper what happens.',
  paymentDisputed: 'Needs attention: the shopper disputes the charge with their bank. Answer the dispute at the payment provider; the money may go back.',
};
export type CaptureStage = 'waiting' | 'authorised' | 'asked' | 'captured' | 'failed';

/** Promise to sell: where charging the shopper stands, read from the payment history (the provider's word and the service's requests). */
export function captureStage(order: StoreOrder): { stage: CaptureStage; words: string } | null {
  if (order.contractModel !== 'promiseToSell') return null;
  const said = (source: string, ...kinds: string[]) => (order.payments ?? []).some((p) => p.source === source && kinds.includes(p.kind));
  if (said('provider', 'captured', 'paid'))
    return { stage: 'captured', words: 'the payment provider charged the shopper once the supplier accepted (its signed notification).' };
  if (said('provider', 'captureFailed') || said('service', 'captureFailed') || (order.paymentStatus === 'failed' && said('service', 'captureRequested'))) {
    return { stage: 'failed', words: 'the supplier accepted, but the payment provider refused to charge the shopper. Tell a person at once.' };
  }
  if (said('service', 'captureRequested'))
    return {
      stage: 'asked',
      words: 'the supplier accepted; the payment provider took the request to charge the shopper, and its signed notification will confirm it.',
    };
  if (order.paymentStatus === 'authorised')
    return { stage: 'authorised', words: "the shopper's payment is authorised; the shopper is charged when the supplier accepts the order." };
  return { stage: 'waiting', words: "the part is sent once the payment provider authorises the shopper's payment." };
}

/** After "paid": who pays each supplier now, as its connection is set. */
function whoPays(parts: SupplierPart[]): string {
  const auto = parts.filter((p) => paysByItself(p.automation)).map((p) => p.supplier);
  const byHand = parts.filter((p) => !paysByItself(p.automation)).map((p) => p.supplier);
  if (!parts.length) return '';
  if (!byHand.length) return ': the service may pay the supplier automatically';
  if (!auto.length)
    return `: the supplier is paid only when you pay it (${parts.length === 1 ? 'its connection does not' : 'their connections do not'} pay automatically)`;
  return `: the service may pay ${auto.join(', ')} automatically; ${byHand.join(', ')} only when you pay it`;
}

export function providerSays(order: StoreOrder, total: string, parts: SupplierPart[]): string {
  switch (order.paymentStatus) {
    case 'paid':
      return `paid ${total}${whoPays(parts)}`;
    case 'authorised':
      return order.contractModel === 'promiseToSell' ? `authorised ${total}: charged when the supplier accepts` : `authorised ${total}, not settled yet`;
    case 'failed':
      return 'the payment failed';
    case 'partiallyRefunded':
      return `paid ${total}, ${money(order.amountRefundedMinor ?? 0, order.currency)} of it refunded`;
    case 'refunded':
      return 'refunded';
    default:
      return 'nothing yet';
  }
}

/** Where the provider's word comes from for this store, or why the console cannot open its checkout. */
export function providerLine(order: StoreOrder, provider: PaymentProviderView | null): string {
  if (order.paymentMethod !== 'online') return 'Not paid online: nothing comes from the payment provider. Mark it paid by hand once the shopper paid.';
  if (!provider)
    return "Shoppers pay at the store's payment provider; its signed notification moves this order. (Your access does not include the store's payment settings.)";
  if (!provider.configured)
    return 'This store has no payment provider set up, so no online payment can be confirmed: set it up (PUT /api/stores/:storeId/payment-provider), or mark the order paid by hand.';
  if (order.contractModel === 'promiseToSell' && provider.hasApiKey === false)
    return 'The store gave no API key for its payment provider, so the service cannot charge the shopper when the supplier accepts: add it (PUT /api/stores/:storeId/payment-provider, apiKey).';
  if (!provider.checkoutUrl)
    return "Shoppers pay at the store's payment provider; its signed notification moves this order. The store gave no checkout address, so the console cannot open it.";
  return "Shoppers pay at the store's payment provider checkout; only its signed notification moves this order's payment.";
}
