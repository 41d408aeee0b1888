import { object } from '../platform/http/schemas';

// The notifications domain's schemas: what the notification address takes and answers.

/** One body for every refusal, so a caller learns nothing about why. */
export const NOTIFICATION_REFUSED = { error: { code: 'notificationRefused', message: 'The notification was not accepted.' } };

export const notificationParams = object({ supplierKey: { type: 'string', maxLength: 100 }, integrationId: { type: 'string', maxLength: 100 } }, ['supplierKey', 'integrationId']);

export const notificationReceived = object({ received: { const: true } }, ['received']);
