import { object } from '../platform/http/schemas';

// The notifications domain's schemas: what the notification address takes and answers.

/** One body for every refusal, so a caller learns nothing about why. */
export const NOTIFICATION_REFUSED = { error: { code: 'notificationRefused', message: 'The notification was not accepted.' } };

const id = { type: 'string', maxLength: 100 } as const;

/** The spec's address: the integration id is the signed `<connectionId>.<store>.<tag>`. */
export const notificationParams = object({ supplierKey: id, integrationId: id }, ['supplierKey', 'integrationId']);

export const notificationReceived = object({ received: { const: true } }, ['received']);
