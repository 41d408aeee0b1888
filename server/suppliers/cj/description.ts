/** What the CJ catalogue entry says about CJ (sign-in and notifications: adapter.ts). */
import type { SupplierDescription } from '../adapter';
import { DEFAULT_REQUESTS_PER_SECOND } from './session';

export const CJ_DESCRIPTION: SupplierDescription = {
  key: 'cj',
  name: 'CJ Dropshipping',
  description:
    'CJ Dropshipping through its API 2.0. Connect with the API key from My CJ > Authorization > API. Orders are created at CJ and paid from the CJ balance; cost, stock and availability are synced.',
  capabilities: {
    // CJ's only test switch (isSandbox on create) cannot be paid from the balance: test connections place nothing.
    hasSandbox: false,
    balance: true,
    cancel: true,
    payment: 'balance',
    syncFields: ['cost', 'stock', 'availability'],
  },
  settingsSchema: {
    type: 'object',
    properties: {
      requestsPerSecond: {
        type: 'integer',
        minimum: 1,
        maximum: 10,
        default: DEFAULT_REQUESTS_PER_SECOND,
        description: 'Calls per second this CJ account may make (CJ: Free 1, Plus 2, Prime 4, Advanced 6)',
      },
      fromCountryCode: { type: 'string', pattern: '^[A-Z]{2}$', default: 'CN', description: 'The CJ warehouse country orders ship from (ISO code)' },
    },
    additionalProperties: false,
  },
  defaultSettings: { requestsPerSecond: DEFAULT_REQUESTS_PER_SECOND, fromCountryCode: 'CN' },
  credentialsSchema: {
    type: 'object',
    properties: {
      apiKey: { type: 'string', minLength: 8, maxLength: 200, pattern: '^[\\x21-\\x7e]+$', description: 'The CJ API key (My CJ > Authorization > API)' },
    },
    required: ['apiKey'],
    additionalProperties: false,
  },
};
