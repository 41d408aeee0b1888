/** What the sandbox supplier's two catalogue entries say about themselves (sign-in and notifications: adapter.ts). */
import type { SupplierDescription } from '../adapter';

const CAPABILITIES: SupplierDescription['capabilities'] = {
  hasSandbox: true,
  balance: true,
  cancel: true,
  payment: 'balance',
  syncFields: ['cost', 'price', 'stock', 'title', 'availability'],
};

function settingsSchema(): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      shippingSpeed: { type: 'string', enum: ['standard', 'express'], default: 'standard' },
      orderNotePrefix: { type: 'string', maxLength: 40 },
    },
    additionalProperties: false,
  };
}

export const API_KEY_DESCRIPTION: SupplierDescription = {
  key: 'sandbox',
  name: 'Sandbox Supplier',
  description: 'The fake supplier that ships with Store Suppliers, for trying the service end to end. Connect with an sbx_live_ or sbx_test_ API key.',
  capabilities: CAPABILITIES,
  settingsSchema: settingsSchema(),
  defaultSettings: { shippingSpeed: 'standard', orderNotePrefix: '' },
  credentialsSchema: {
    type: 'object',
    properties: { apiKey: { type: 'string', pattern: '^sbx_(live|test)_[A-Za-z0-9_]+$', maxLength: 200 } },
    required: ['apiKey'],
    additionalProperties: false,
  },
};

/** The sandbox program's second warehouse (its `/eu` identity): another supplier, by API key, for trying backup suppliers. */
export const EU_DESCRIPTION: SupplierDescription = {
  ...API_KEY_DESCRIPTION,
  key: 'sandbox-eu',
  name: 'Sandbox Supplier EU',
  description:
    "The sandbox supplier's second warehouse, in the EU: most of the same products, at other costs and stock, shipped from Germany in fewer days at a higher shipping price. For trying backup suppliers. Connect with one of its sbx_live_ or sbx_test_ API keys.",
};

export const SIGN_IN_DESCRIPTION: SupplierDescription = {
  key: 'sandbox-signin',
  name: 'Sandbox Supplier (sign-in)',
  description: 'The sandbox supplier connected by signing in to it instead of pasting a key. Sign-in tokens act in its live environment.',
  // No test environment and no balance through the API: the catalogue shows suppliers that differ.
  capabilities: { ...CAPABILITIES, syncFields: [...CAPABILITIES.syncFields], hasSandbox: false, balance: false },
  settingsSchema: settingsSchema(),
  defaultSettings: { shippingSpeed: 'standard', orderNotePrefix: '' },
  // Sign-in only: nothing may be connected by pasting credentials.
  credentialsSchema: { type: 'object', properties: {}, additionalProperties: false },
};
