import { object } from '../platform/http/schemas';
import { PAYMENT_PROVIDERS } from './providers';

// The payments domain's schemas: what its routes take and answer.

/** One body for every refusal, so a caller learns nothing about why. */
export const PAYMENT_NOTIFICATION_REFUSED = { error: { code: 'notificationRefused', message: 'The notification was not accepted.' } };

export const providerSchema = object(
  {
    provider: { enum: [...PAYMENT_PROVIDERS, null] },
    notificationUrl: { type: 'string', description: "Enter this address at the payment provider: the store's payment events are sent there" },
    configured: { type: 'boolean' },
    checkoutUrl: { type: ['string', 'null'], description: "Where shoppers pay this store's orders at the provider, as the store gave it (null: not given)" },
    hasApiKey: {
      type: 'boolean',
      description: 'The store gave its API key at the provider (never answered): without it promise-to-sell payments cannot be captured',
    },
    updatedAt: { type: ['string', 'null'], format: 'date-time' },
  },
  ['provider', 'notificationUrl', 'configured', 'checkoutUrl', 'hasApiKey', 'updatedAt'],
);
