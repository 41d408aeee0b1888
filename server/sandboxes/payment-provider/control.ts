import Router from '@koa/router';
import type { Payments } from './runtime';
import { Refusal } from './refusal';
import { paymentView } from './capture';
import { noCaptureFaults } from './state';

const count = (v: unknown, name: string): number => {
  if (v === undefined) return 1;
  if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > 1000) throw new Refusal(400, 'invalidRequest', `${name} must be an integer from 0 to 1000`);
  return v as number;
};
const object = (v: unknown, name: string): Record<string, unknown> => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Refusal(400, 'invalidRequest', `${name} must be an object`);
  return v as Record<string, unknown>;
};

/**
 * Test-only levers of the sandbox payment provider, mounted only with `control: true` (as the sandbox supplier's):
 * faults for the next capture requests, holding deliveries back (to see what the store does before an event
 * arrives), and the provider's own records of an order's payments.
 */
export function controlRouter(p: Payments): Router {
  const router = new Router({ prefix: '/control' });
  router.get('/faults', (ctx) => {
    ctx.body = p.state.faults;
  });
  router.post('/faults', (ctx) => {
    const body = object(ctx.request.body ?? {}, 'the body');
    const faults = p.state.faults;
    if (body.refuseCapture !== undefined) {
      if (body.refuseCapture === null) faults.refuse = null;
      else {
        const r = object(body.refuseCapture, 'refuseCapture');
        const mode = r.mode ?? 'answer';
        if (mode !== 'answer' && mode !== 'event') throw new Refusal(400, 'invalidRequest', 'refuseCapture.mode must be answer or event');
        const message = typeof r.message === 'string' && r.message ? r.message.slice(0, 500) : 'The card issuer declined the capture';
        const n = count(r.count, 'refuseCapture.count');
        faults.refuse = n > 0 ? { count: n, message, mode } : null;
      }
    }
    if (body.unavailable !== undefined) faults.unavailable = count(object(body.unavailable, 'unavailable').count, 'unavailable.count');
    if (body.loseAnswer !== undefined) faults.loseAnswer = count(object(body.loseAnswer, 'loseAnswer').count, 'loseAnswer.count');
    if (body.loseRefundAnswer !== undefined) faults.loseRefundAnswer = count(object(body.loseRefundAnswer, 'loseRefundAnswer').count, 'loseRefundAnswer.count');
    ctx.body = faults;
  });
  router.delete('/faults', (ctx) => {
    p.state.faults = noCaptureFaults();
    ctx.body = p.state.faults;
  });
  // Held: events (of `types`, or all) wait at the provider (their log shows them undelivered) until released.
  router.post('/deliveries', (ctx) => {
    const { held, types } = object(ctx.request.body ?? {}, 'the body');
    if (typeof held !== 'boolean') throw new Refusal(400, 'invalidRequest', 'held must be true or false');
    if (types !== undefined && (!Array.isArray(types) || !types.every((t) => typeof t === 'string')))
      throw new Refusal(400, 'invalidRequest', 'types must be a list of event types');
    p.sender.hold(held, (types as string[] | undefined) ?? null);
    ctx.body = { held, types: types ?? null };
  });
  router.get('/payments', (ctx) => {
    const orderId = String(ctx.query.orderId ?? '');
    ctx.body = { items: [...p.state.payments.values()].filter((x) => x.orderId === orderId).map(paymentView) };
  });
  return router;
}
