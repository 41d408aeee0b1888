/** What the Printful catalogue entry says about Printful (docs/suppliers/printful.md). */
import type { SupplierDescription } from '../adapter';

export const PRINTFUL_DESCRIPTION: SupplierDescription = {
  key: 'printful',
  name: 'Printful',
  description:
    'Printful (print on demand) through its API. Connect with a private token from the Printful Developer Portal (and the store id when the token is account-level). Orders are created at Printful as drafts under our order number and confirmed to pay, which charges the billing method on file at Printful; its webhooks (one address per store) prompt read-backs; cost and availability are synced.',
  capabilities: {
    // Printful has no test environment: a confirmed order is charged and made.
    hasSandbox: false,
    balance: false,
    cancel: true,
    // Confirming charges the card on file; payOrder is that confirm.
    payment: 'balance',
    syncFields: ['cost', 'stock', 'availability'],
    // No claims API: problems are reported in the dashboard within 30 days (of delivery, or of the expected date).
    claims: { deadlineDays: 30, counted: 'fromShipping', where: 'Printful dashboard: Orders, the order, Report a problem (photos of the issue).' },
  },
  settingsSchema: { type: 'object', properties: {}, additionalProperties: false },
  defaultSettings: {},
  credentialsSchema: {
    type: 'object',
    properties: {
      // `apiKey`, as every API-key supplier names it: the console's form and the n8n node send it under that name.
      apiKey: {
        type: 'string',
        minLength: 8,
        maxLength: 200,
        pattern: '^[\\x21-\\x7e]+$',
        description: 'A Printful private token (Developer Portal > Your tokens) with the orders, sync_products and webhooks scopes',
      },
      storeId: { type: 'string', pattern: '^[1-9][0-9]{0,14}$', description: 'The Printful store id; needed only when the token is account-level' },
    },
    required: ['apiKey'],
    additionalProperties: false,
  },
};
