import { ApiError, databaseUnavailable } from '../platform/errors';
import { defineRoutes, route, Reply, type RequestContext } from '../platform/http/route';
import { NOTIFICATION_REFUSED, notificationParams, notificationReceived } from './schemas';
import type { NotificationService } from './service';

const PATH = '/api/store-suppliers/webhook';

/** The address's answers: raw body, one refusal for every reason, 503 when the service cannot decide. */
const common = {
  tag: 'Supplier notifications',
  auth: 'none' as const,
  readOnly: false,
  rawBody: true,
  refusal: NOTIFICATION_REFUSED,
  response: { status: 200, schema: notificationReceived, raw: true },
  extraResponses: [[503, { description: 'The service cannot decide now (for example the database is unreachable); send again later' }]] as Array<
    [number, { description: string }]
  >,
};

const ANSWERS =
  'Only prompts a read-back from the supplier; it never changes a status, money or stock itself. Every refusal answers 400 with the same body; 503 when the service cannot decide (the supplier should send again).';

export function notificationRoutes(notifications: NotificationService) {
  // `rc.log` is read only when needed: the request's child logger is made on first read.
  async function receive(rc: RequestContext) {
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
  }
  return defineRoutes([
    route({
      ...common,
      operationId: 'receiveSupplierNotification',
      method: 'post',
      path: `${PATH}/:supplierKey/:integrationId`,
      summary: "The supplier reports order status, tracking and stock; verified against the connection's own credentials",
      description: `The address a connection answers as \`webhookUrl\` and registers with its supplier. Its integrationId carries the connection's store, signed by the service (an altered one is refused, and so is any other form). ${ANSWERS}`,
      params: notificationParams,
      handler: receive,
    }),
  ]);
}
