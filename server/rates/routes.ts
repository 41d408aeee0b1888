import { errors } from '../platform/errors';
import { defineRoutes, route } from '../platform/http/route';
import { isCurrency } from '../platform/currencies';
import { pairParams, pinBody, pinSchema, rateAnswerSchema, rateQuery, unpinnedSchema } from './schemas';
import type { ExchangeRateService } from './service';

const TAG = 'Operator';
const PATH = '/api/operator/exchange-rates/:base/:quote';

function pair(p: { base: string; quote: string }): void {
  for (const code of [p.base, p.quote]) if (!isCurrency(code)) throw errors.badRequest('unknownCurrency', `${code} is not an ISO 4217 currency.`);
  if (p.base === p.quote) throw errors.badRequest('samePair', 'A rate is between two different currencies.');
}

/** The operator's exchange rates (behind the operator token): look one up, pin one, unpin it. */
export function ratesRoutes(rates: ExchangeRateService) {
  return defineRoutes([
    route({
      operationId: 'operatorGetExchangeRate',
      method: 'get',
      path: PATH,
      tag: TAG,
      auth: 'operator',
      readOnly: true,
      summary: 'Operator: the exchange rate the service would use from base to quote, with its source and day, or why there is none',
      params: pairParams,
      query: rateQuery,
      response: { status: 200, schema: rateAnswerSchema },
      handler: async ({ params: p, query }) => {
        const answer = await rates.rateFor(p.base, p.quote, query.asOf);
        return { from: p.base, to: p.quote, ...answer };
      },
    }),
    route({
      operationId: 'operatorPinExchangeRate',
      method: 'put',
      path: PATH,
      tag: TAG,
      auth: 'operator',
      readOnly: false,
      summary: 'Operator: pin the rate from base to quote (a decimal string); it wins over fetched rates until unpinned',
      params: pairParams,
      body: pinBody,
      response: { status: 200, schema: pinSchema },
      handler: async ({ params: p, body }) => {
        pair(p);
        if (/^[0.]+$/.test(body.rate)) throw errors.badRequest('invalidRate', 'A rate is greater than zero.');
        return rates.pin(p.base, p.quote, body.rate, body.reason);
      },
    }),
    route({
      operationId: 'operatorUnpinExchangeRate',
      method: 'delete',
      path: PATH,
      tag: TAG,
      auth: 'operator',
      readOnly: false,
      summary: 'Operator: unpin the rate from base to quote; fetched rates apply again',
      params: pairParams,
      response: { status: 200, schema: unpinnedSchema },
      handler: async ({ params: p }) => {
        pair(p);
        if (!(await rates.unpin(p.base, p.quote))) throw errors.notFound('The pinned rate');
        return { base: p.base, quote: p.quote, unpinned: true };
      },
    }),
  ]);
}
