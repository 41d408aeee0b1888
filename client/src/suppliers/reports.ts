import type { Transport } from '../transport.js';
import type { Api, RequestOptions } from '../types.js';

/** A store's reports: the profit over a range of days, by day, product or connection, in the store's currency. */
export class Reports {
  constructor(private readonly t: Transport) {}

  /**
   * Totals over the range (`from`/`to`, inclusive UTC days) and one page of rows by `groupBy` (default `day`), read
   * from the sums the service keeps. Repeat with `cursor: report.pagination.nextCursor` for the next rows.
   */
  async profit(storeId: string, query: Api.GetProfitReport['query'], options?: RequestOptions): Promise<Api.GetProfitReport['result']> {
    return (await this.t.call('getProfitReport', { params: { storeId }, query }, options)).result;
  }
}
