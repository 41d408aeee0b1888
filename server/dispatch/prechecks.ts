import type { Work } from './work';
import { Refusal } from './sourcing';

/**
 * The part's own check before a create, whichever supplier takes it: the shopper's payment, as the contract model and
 * the connection's automation need it. The send runs the checks in this order (docs/decisions.md, "Pre-checks"): the
 * part's supplier as its connection stands (./sourcing/offer.ts `admissible`: switched off by the operator, removed or
 * off, test mode, circuit, excluded country), this one, routing where its rule chooses, then what the supplier offers
 * now (./sourcing/policies.ts `sendHere`: variants, stock, destination, one currency, shipping quote, rate, cost
 * changed, maximum buy prices, cost limit), and the suppliers the part was at before asked again.
 */
export function shopperUnpaid({ so, conn, order }: Work): Refusal | null {
  const willPay = so.payNow || conn.automation.automaticPayment;
  // Refunded in part, the sale stands for the rest: paid, for sending.
  const paid = order.paymentStatus === 'paid' || order.paymentStatus === 'partiallyRefunded';
  if (so.contractModel === 'promiseToSell') {
    if (order.paymentStatus !== 'authorised' && !paid)
      return new Refusal('customerPaymentPending', "Promise to sell: the shopper's payment is not authorised yet.");
  } else if (willPay && !so.payNow) {
    if (order.paymentMethod === 'online') {
      if (order.paymentStatus === 'authorised') return new Refusal('customerPaymentNotSettled', "The shopper's payment is authorised but not settled yet.");
      if (!paid) return new Refusal('customerPaymentPending', 'The shopper has not paid online yet.');
    } else if (!conn.automation.allowUnpaidOrders) {
      return new Refusal('customerPaymentPending', 'The order has no online payment and the connection does not allow unpaid orders.');
    }
  }
  return null;
}
