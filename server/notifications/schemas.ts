import { object } from '../platform/http/schemas';

// The notifications domain's schemas: what the notification address takes and answers.

/** One body for every refusal, so a caller learns nothing about why. */
export const NOTIFICATION_REFUSED = { error: { code: 'notificationRefused', message: 'The notification was not accepted.' } };

const id = { type: 'string', maxLength: 100 } as const;

/** The spec's address: the integration id is the signed `<connectionId>.<store>.<tag>`, or a bare connection id (the oldest form). */
export const olderNotificationParams = object({ supplierKey: id, integrationId: id }, ['supplierKey', 'integrationId']);

/** The store-named address, an older form: still accepted (suppliers hold it until it is registered again). */
export const notificationParams = object({ supplierKey: id, storeId: id, integrationId: id }, ['supplierKey', 'storeId', 'integrationId']);

export const notificationReceived = object({ received: { const: true } }, ['received']);
