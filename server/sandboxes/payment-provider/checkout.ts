import Router from '@koa/router';
import type { Payments } from './runtime';
import { chargeInput } from './charge';

function merchantFor(p: Payments, id: string | undefined) {
  const merchant = p.state.merchantById(id ?? '');
  if (!merchant) throw Object.assign(new Error('No such merchant'), { status: 404 });
  return merchant;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body style="font-family:sans-serif;max-width:32rem;margin:3rem auto"><h1>${escape(title)}</h1>${body}<p><small>Sandbox payment provider: no money moves.</small></p></body></html>`;
}

/**
 * The hosted checkout a shopper would see: `GET /checkout?merchant=<id>&orderId=&amountMinor=&currency=` shows the
 * amount and a Pay button; paying sends the merchant's store the signed `payment.paid` event, as a real provider does.
 */
/** The amount in its currency's own decimals (JPY none, KWD three), as the browser's Intl data has them. */
function shown(amountMinor: number, currency: string): string {
  let digits = 2;
  try {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    // not a currency Intl knows: two decimals, and the code beside it
  }
  const s = String(amountMinor).padStart(digits + 1, '0');
  return `${digits ? `${s.slice(0, -digits)}.${s.slice(-digits)}` : s} ${currency}`;
}

export function checkoutRouter(p: Payments): Router {
  const router = new Router();
  router.get('/checkout', (ctx) => {
    const q = ctx.query as Record<string, string>;
    const input = chargeInput(q);
    const merchant = merchantFor(p, q.merchant);
    const fields = Object.entries({ merchant: merchant.id, ...input }).map(([k, v]) => `<input type="hidden" name="${k}" value="${escape(String(v))}">`);
    ctx.type = 'html';
    ctx.body = page(
      `Pay ${shown(input.amountMinor, input.currency)}`,
      `<p>Order ${escape(input.orderId)}</p><form method="post" action="/checkout">${fields.join('')}<button type="submit">Pay</button></form>`,
    );
  });
  router.post('/checkout', (ctx) => {
    const form = (ctx.request.body ?? {}) as Record<string, string>;
    const input = chargeInput(form);
    const merchant = merchantFor(p, form.merchant);
    const payment = p.state.addPayment({ ...input, merchantId: merchant.id, status: 'authorised' });
    const eventId = p.emit(merchant, payment, 'payment.paid');
    ctx.type = 'html';
    ctx.body = page(
      'Paid',
      `<p>Payment <code>${escape(payment.id)}</code> for order ${escape(input.orderId)}; the store was sent event <code>${escape(eventId)}</code>.</p>`,
    );
  });
  return router;
}
