/**
 * CJ tracking (docs/suppliers/cj.md, "Tracking"): `logistic/trackInfo` by the tracking number answers the parcel's
 * latest state (its documented fields: `trackingStatus`, `deliveryTime`, `lastMileCarrier`...), read as one scan; the
 * words tell an exception. The LOGISTIC notification only prompts this read-back.
 */
import type { DeliveryException, SupplierCallContext, TrackingView } from '../adapter';
import { asObj, optionalText } from '../http';
import type { CjClient } from './client';
import { list, parseCjDate } from './readers';

const EXCEPTIONS: Array<[RegExp, DeliveryException]> = [
  [/return/i, 'returnedToSender'],
  [/custom/i, 'customsHold'],
  [/(fail|exception|undeliver)/i, 'failedDelivery'],
];

export async function trackInfo(client: CjClient, ctx: SupplierCallContext, trackNumber: string): Promise<TrackingView | undefined> {
  const answer = await client.request(ctx, { method: 'GET', path: '/logistic/trackInfo', query: { trackNumber } }, 'order');
  return client.read(answer, (data) => {
    // Documented as a batch: a list, though a single object is taken too.
    const rows = data === null ? [] : Array.isArray(data) ? list(data, 'track') : [data];
    const row = rows.map((r, i) => asObj(r, `track[${i}]`)).find((r) => (optionalText(r, 'trackingNumber') ?? optionalText(r, 'trackNumber')) === trackNumber);
    if (!row) return undefined;
    const at = parseCjDate(row.deliveryTime);
    const words = optionalText(row, 'trackingStatus') ?? '';
    const exception = /deliver(ed)?$/i.test(words) ? null : (EXCEPTIONS.find(([re]) => re.test(words))?.[1] ?? null);
    const events =
      Number.isFinite(at) && words
        ? [{ at: new Date(at).toISOString(), description: words, location: optionalText(row, 'trackingTo'), ...(exception ? { exception } : {}) }]
        : [];
    return { events, exception, promisedMaxDays: null };
  });
}
