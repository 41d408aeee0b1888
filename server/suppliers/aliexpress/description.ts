/** What the AliExpress catalogue entry says about AliExpress (sign-in, no notifications: adapter.ts). */
import type { SupplierCallContext, SupplierDescription } from '../adapter';

export const DEFAULT_REQUESTS_PER_SECOND = 5;
/** Two-decimal currencies AliExpress prices in (the shared money reading takes two decimals). */
const CURRENCIES = ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'NZD', 'CHF', 'PLN', 'SEK', 'NOK', 'DKK', 'BRL', 'MXN'];

export const ALIEXPRESS_DESCRIPTION: SupplierDescription = {
  key: 'aliexpress',
  name: 'AliExpress Dropshipping',
  description:
    'AliExpress through its Dropshipping (DS) API. Connect by signing in to the AliExpress buyer account that places the orders. ' +
    'Orders are paid as they are created, from that account, when automatic payment is on (otherwise on aliexpress.com); AliExpress has no cancel API and sends no notifications: orders are read back on a schedule. Cost, stock and availability are synced.',
  capabilities: {
    // AliExpress lends a test buyer account instead of a test environment: test connections place nothing.
    hasSandbox: false,
    balance: false,
    cancel: false,
    payment: 'atCreate',
    syncFields: ['cost', 'stock', 'availability'],
    // The DS API has no dispute call: the buyer opens one on aliexpress.com; the seller has 15 days to answer, then it escalates.
    claims: {
      deadlineDays: 15,
      counted: 'fromClaim',
      where: 'aliexpress.com: My Orders, the order, Open dispute (the seller has 15 days to answer, then escalate).',
    },
  },
  settingsSchema: {
    type: 'object',
    properties: {
      shipToCountry: {
        type: 'string',
        pattern: '^[A-Z]{2}$',
        default: 'US',
        description: "The country product costs and stock are read for (ISO code): where most of the store's orders go",
      },
      currency: { enum: CURRENCIES, default: 'USD', description: "The currency costs are read and orders paid in; the store's own currency" },
      language: { type: 'string', pattern: '^[a-z]{2}(_[A-Z]{2})?$', default: 'en', description: 'The language of titles and options' },
      requestsPerSecond: {
        type: 'integer',
        minimum: 1,
        maximum: 50,
        default: DEFAULT_REQUESTS_PER_SECOND,
        description: 'Calls per second for this AliExpress account (AliExpress answers ApiCallLimit above what it allows)',
      },
    },
    additionalProperties: false,
  },
  defaultSettings: { shipToCountry: 'US', currency: 'USD', language: 'en', requestsPerSecond: DEFAULT_REQUESTS_PER_SECOND },
  // Sign-in only: nothing may be connected by pasting credentials.
  credentialsSchema: { type: 'object', properties: {}, additionalProperties: false },
};

/** A text setting of the connection, or its default when unset. */
export function setting(ctx: SupplierCallContext, key: string, fallback: string): string {
  const v = ctx.settings[key];
  return typeof v === 'string' && v ? v : fallback;
}
