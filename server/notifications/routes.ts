import { ApiError, databaseUnavailable } from '../platform/errors';
import { defineRoutes, route, Reply } from '../platform/http/route';
import { NOTIFICATION_REFUSED, notificationParams, notificationReceived } from './schemas';
import type { NotificationService } from './service';

export function notificationRoutes(notifications: NotificationService) {
  return defineRoutes([
    route({
      operationId: 'receiveSupplierNotification', method: 'post', path: '/api/store-suppliers/webhook/:supplierKey/:integrationId',
      summary: 'The supplier reports order status, tracking and stock; verified against the connection\'s own credentials',
      description:
        'Only prompts a read-back from the supplier; it never changes a status, money or stock itself. Every refusal answers 400 with the same body; 503 when the service cannot decide (the supplier should send again).',
      tag: 'Supplier notifications', auth: 'none', readOnly: false,
      rawBody: true,
      refusal: NOTIFICATION_REFUSED,
      params: notificationParams, response: { status: 200, schema: notificationReceived, raw: true },
      extraResponses: [[503, { description: 'The service cannot decide now (for example the database is unreachable); send again later' }]],
      // `rc.log` is read only when needed: the request's child logger is made on first read.
      async handler(rc) {
        const { params, rawBody, headers } = rc;
        let outcome: 'accepted' | 'refused';
        try {
          outcome = await notifications.receive(params.supplierKey, params.integrationId, rawBody, headers);
        } catch (err) {
          // A database out of reach is logged where the answer is made, once per window.
          if (!databaseUnavailable(err)) rc.log.warn({ err }, 'notification could not be decided');
          throw Object.assign(new ApiError(503, 'serviceUnavailable', 'The notification could not be handled now; send it again later.'), { cause: err });
        }
        return outcome === 'accepted' ? new Reply(200, { received: true }, true) : new Reply(400, NOTIFICATION_REFUSED, true);
      },
    }),
  ]);
}
