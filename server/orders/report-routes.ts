import { ownRecordsKeyId } from '../identity/permissions';
import { errors } from '../platform/errors';
import { byCaller, defineRoutes, route } from '../platform/http/route';
import { calendarDay, object, pageOf, pageQuery, params } from '../platform/http/schemas';
import type { ProfitReports } from './report';

const day = { ...calendarDay, description: 'A day in UTC, YYYY-MM-DD (years 0001 to 9999)' } as const;
const amount = { type: 'integer', description: "Integer amount in the store's currency's minor units" } as const;
const count = { type: 'integer', minimum: 0 } as const;
const credit = { ...amount, description: 'Supplier credits (claims refunded) at their recorded rates, already taken off landedCostMinor' } as const;
const figures = {
  orders: count,
  parts: count,
  revenueMinor: amount,
  landedCostMinor: amount,
  paymentFeeMinor: amount,
  supplierCreditMinor: credit,
  resultMinor: amount,
  incompleteParts: count,
} as const;
const FIGURES = ['orders', 'parts', 'revenueMinor', 'landedCostMinor', 'paymentFeeMinor', 'supplierCreditMinor', 'resultMinor', 'incompleteParts'] as const;
const item = object(
  {
    key: { type: 'string', description: 'The day (groupBy=day), the store product id (product) or the connection id (connection)' },
    label: { type: 'string', description: "The day, the product's title, or the supplier and the connection's mode" },
    ...figures,
  },
  ['key', 'label', ...FIGURES],
);
const page = pageOf(item);
const reportSchema = object(
  {
    currency: { type: 'string', pattern: '^[A-Z]{3}$', description: "The store's currency (ISO 4217)" },
    from: day,
    to: day,
    groupBy: { enum: ['day', 'product', 'connection'] },
    totals: object(figures, FIGURES),
    items: page.properties.items,
    pagination: page.properties.pagination,
  },
  ['currency', 'from', 'to', 'groupBy', 'totals', 'items', 'pagination'],
);

export function profitReportRoutes(reports: ProfitReports) {
  return defineRoutes([
    route({
      operationId: 'getProfitReport',
      method: 'get',
      path: '/api/store-suppliers/:storeId/reports/profit',
      ...byCaller('Reports', 'suppliers.view', true),
      summary: "The store's profit over a range of days, in its currency: totals and rows per day, product or connection, keyset-paged by key",
      description:
        "Read from sums the service keeps as landed costs, revenue and the payment provider's fees are recorded (not from a scan of the orders). `from` and `to` are inclusive days in UTC, at most 366 days apart. A part enters with its first landed cost; `incompleteParts` counts parts the supplier has not accepted yet and parts priced in another currency than the store's (their amounts are not summed). Fees are the orders's: rows by product or connection carry none, the totals and rows by day do. A key whose record scope is `own` is refused (403 `recordScopeTooNarrow`): the sums hold every order of the store.",
      params: params(['storeId']),
      query: object({ ...pageQuery, from: day, to: day, groupBy: { enum: ['day', 'product', 'connection'], default: 'day' } }, ['from', 'to']),
      response: { status: 200, schema: reportSchema },
      handler: async (ctx) => {
        // The sums are the store's: a key that reaches only its own records would read every order's money through them.
        if (ownRecordsKeyId(ctx.caller))
          throw errors.forbidden(
            'recordScopeTooNarrow',
            "The profit report sums every order of the store; a key that reaches only its own records cannot read it. Use a key that reaches all the account's records, or sign in.",
          );
        return reports.profit(ctx.params.storeId, ctx.query);
      },
    }),
  ]);
}
