import { Refusal } from './refusal';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a charge needs: the store's order id, the amount in minor units and its currency. */
export function chargeInput(body: Record<string, unknown>): { orderId: string; amountMinor: number; currency: string } {
  const { orderId, amountMinor, currency } = body;
  if (typeof orderId !== 'string' || !UUID.test(orderId)) throw new Refusal(400, 'invalidOrderId', "orderId must be the store order's id (a UUID)");
  const amount = typeof amountMinor === 'string' ? Number(amountMinor) : amountMinor;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 0)
    throw new Refusal(400, 'invalidAmount', 'amountMinor must be a whole number of minor units');
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) throw new Refusal(400, 'invalidCurrency', 'currency must be an ISO 4217 code');
  return { orderId, amountMinor: amount, currency };
}
