/** Money back after the sale for the console's profit page (test/console/profit.test.ts): a supplier credit and a shopper's refund. */
import { eventually } from '../support/harness';
import { US_ADDRESS } from '../support/orders';
import { connectPayments, type PaymentSandbox } from '../support/payments';
import type { ConsoleWorld } from './session';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Money back after the sale, through the real sandboxes: the first order's part shipped and a claim on it refunded by
 * the supplier (a credit at the recorded rate), and a second order paid at the payment provider and refunded there in
 * part (1.50 EUR).
 */
export async function creditAndRefund(w: ConsoleWorld, provider: PaymentSandbox, s: { storeId: string; orderId: string; connId: string }): Promise<void> {
  const { storeId, connId } = s;
  const api = (method: string, path: string, body?: unknown) => w.svc.call(method, path, { key: w.owner.key, body });
  const so = (await api('GET', `/api/store-orders/${storeId}/${s.orderId}`)).body.result.supplierOrders[0];
  const soPath = `/api/store-suppliers/${storeId}/orders/${so._id}`;
  await w.sandbox.control('POST', `/orders/${so.supplierOrderId}/ship`, { carrier: 'SandboxPost' });
  await eventually(async () => (await api('GET', soPath)).body.result.status === 'shipped' || undefined, 60_000, 'shipped');
  const items = (await api('GET', `/api/store-orders/${storeId}/${s.orderId}`)).body.result.items;
  const opened = await api('POST', `${soPath}/claims`, { reason: 'damaged', expectation: 'refund', items: [{ itemId: items[0].id, quantity: 1 }] });
  expect(opened.status).toBe(201);
  const claim = await eventually(
    async () => {
      const c = (await api('GET', `${soPath}/claims/${opened.body.result._id}`)).body.result;
      return c.status === 'open' ? c : undefined;
    },
    60_000,
    'the claim sent',
  );
  await w.sandbox.control('POST', `/claims/${claim.supplierClaimId}/decide`, { outcome: 'refund', amountMinor: 500 });
  await eventually(async () => (await api('GET', soPath)).body.result.supplierCredits.length > 0 || undefined, 60_000, 'the credit');

  const payments = await connectPayments(w.svc, provider, storeId, w.owner.key);
  const lines = (await api('GET', `/api/store-orders/${storeId}/${s.orderId}`)).body.result.items;
  const second = await api('POST', `/api/store-orders/${storeId}`, {
    items: [{ productId: lines[0].productId, variantId: lines[0].variantId, quantity: 1 }],
    destination: US_ADDRESS,
    paymentMethod: 'online',
  });
  expect(second.status).toBe(201);
  await payments.pay(second.body.result.id, 'paid');
  const groupPath = `/api/store-suppliers/${storeId}/orders/${second.body.result.id}/groups/${encodeURIComponent(`supplier:${connId}`)}/submit`;
  expect((await api('POST', groupPath, { payNow: true })).status).toBeLessThan(300);
  const secondPath = `/api/store-orders/${storeId}/${second.body.result.id}`;
  await eventually(async () => (await api('GET', secondPath)).body.result.supplierOrders[0]?.profit?.complete || undefined, 60_000, 'accepted');
  expect((await api('POST', `${secondPath}/refunds`, { amountMinor: 150, reason: 'One item returned' })).status).toBe(202);
  await eventually(async () => (await api('GET', secondPath)).body.result.amountRefundedMinor === 150 || undefined, 30_000, 'the refund');
}
