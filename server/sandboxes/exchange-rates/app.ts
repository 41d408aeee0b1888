import Router from '@koa/router';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import type { Logger } from 'pino';
import { dailyXml, noFaults, type RatesState } from './state';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const RATE = /^\d{1,12}(\.\d{1,12})?$/;
/** How long a `timeout` fault holds a request before closing it unanswered (clients give up long before). */
const HOLD_MS = 60_000;

class Refusal extends Error {}

function count(v: unknown, name: string): number {
  if (v === undefined) return 0;
  if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > 1000) throw new Refusal(`${name} must be an integer from 0 to 1000`);
  return v as number;
}

/** The published file, and (with `control`) the levers tests and local trials pull: rates, date, faults. */
export function createRatesApp(state: RatesState, control: boolean, log: Logger, holds: Set<NodeJS.Timeout>): Koa {
  const app = new Koa();
  app.on('error', (err: unknown) => log.debug({ err }, 'koa error'));
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      ctx.status = err instanceof Refusal ? 400 : 500;
      ctx.body = { error: { code: err instanceof Refusal ? 'invalidRequest' : 'internal', message: err instanceof Error ? err.message : 'error' } };
    }
  });
  app.use(koaBody({ json: true, urlencoded: false, text: false, multipart: false, jsonLimit: '64kb' }));
  const router = new Router();
  router.get('/stats/eurofxref/eurofxref-daily.xml', async (ctx) => {
    const f = state.faults;
    if (f.unavailable > 0) {
      f.unavailable--;
      ctx.status = 503;
      ctx.body = 'Service Unavailable';
      return;
    }
    if (f.timeout > 0) {
      f.timeout--;
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => (holds.delete(t), resolve()), HOLD_MS);
        holds.add(t);
      });
      ctx.req.socket.destroy();
      return;
    }
    ctx.type = 'text/xml';
    if (f.malformed > 0) {
      f.malformed--;
      ctx.body = dailyXml(state)
        .replace(/<Cube currency='(\w+)' rate='[^']*'\/>/, "<Cube currency='$1' rate='1,0705'/>")
        .replace('</gesmes:Envelope>', '');
      return;
    }
    ctx.body = dailyXml(state);
  });
  if (control) {
    router.get('/control/rates', (ctx) => {
      ctx.body = { date: state.date, rates: state.rates };
    });
    // Sets the publication date and/or the rates (all of them: the file lists exactly these).
    router.put('/control/rates', (ctx) => {
      const body = (ctx.request.body ?? {}) as { date?: unknown; rates?: unknown };
      if (body.date !== undefined && (typeof body.date !== 'string' || !DATE.test(body.date))) throw new Refusal('date must be YYYY-MM-DD');
      if (body.rates !== undefined) {
        const rates = body.rates as Record<string, unknown>;
        if (!rates || typeof rates !== 'object' || Array.isArray(rates)) throw new Refusal('rates must be an object of currency → decimal string');
        for (const [c, r] of Object.entries(rates))
          if (!/^[A-Z]{3}$/.test(c) || typeof r !== 'string' || !RATE.test(r)) throw new Refusal(`rate of ${c} must be a decimal string`);
        state.rates = { ...(rates as Record<string, string>) };
      }
      if (typeof body.date === 'string') state.date = body.date;
      ctx.body = { date: state.date, rates: state.rates };
    });
    router.post('/control/faults', (ctx) => {
      const body = (ctx.request.body ?? {}) as Record<string, unknown>;
      state.faults = {
        unavailable: count(body.unavailable, 'unavailable'),
        timeout: count(body.timeout, 'timeout'),
        malformed: count(body.malformed, 'malformed'),
      };
      ctx.body = state.faults;
    });
    router.delete('/control/faults', (ctx) => {
      state.faults = noFaults();
      ctx.body = state.faults;
    });
  }
  app.use(router.routes());
  app.use(async (ctx) => {
    if (ctx.body === undefined && ctx.status === 404) ctx.body = { error: { code: 'notFound', message: `No route ${ctx.method} ${ctx.path}` } };
  });
  return app;
}
