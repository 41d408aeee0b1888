import Ajv from 'ajv';
import { errors } from '../platform/errors';
import { supportsSignIn, type SupplierAdapter } from '../suppliers/adapter';
import type { SupplierRegistry } from '../suppliers/registry';

const settingsAjv = new Ajv({ allErrors: true, useDefaults: true, strict: false });

/** Credentials not stored yet: what the adapter obtains while verifying them (such as a token) joins them, to be stored with them. */
export function gathering(credentials: Record<string, string>) {
  const working = { ...credentials };
  return { working, onChanged: async (changed: Record<string, string>) => void Object.assign(working, changed) };
}

/** What a connection is made with, checked against its supplier's own schemas before anything is stored. */
export class ConnectionSettings {
  private readonly settingsValidators = new Map<string, ReturnType<Ajv['compile']>>();

  constructor(private readonly registry: SupplierRegistry) {}

  /** The supplier's adapter for a new connection: one in the catalogue, not switched off by the operator. */
  adapter(supplierKey: string): SupplierAdapter {
    const adapter = this.registry.find(supplierKey);
    if (!adapter) throw errors.validationFailed([{ field: 'body/supplierKey', message: `no supplier ${supplierKey} in the catalogue` }]);
    if (this.registry.isSwitchedOff(supplierKey))
      throw errors.badRequest('supplierSwitchedOff', `The supplier ${supplierKey} is switched off by the operator of this service.`);
    return adapter;
  }

  validateCredentials(adapter: SupplierAdapter, credentials: Record<string, unknown>): Record<string, string> {
    if (supportsSignIn(adapter))
      throw errors.badRequest('signInRequired', `${adapter.entry.name} is connected through sign-in: use POST /:storeId/oauth/start.`);
    const validate = settingsAjv.compile(adapter.entry.credentialsSchema);
    if (!validate(credentials)) {
      throw errors.validationFailed((validate.errors ?? []).map((e) => ({ field: `body/credentials${e.instancePath}`, message: e.message ?? 'is not valid' })));
    }
    return credentials as Record<string, string>;
  }

  validateSettings(adapter: SupplierAdapter, settings: Record<string, unknown>): Record<string, unknown> {
    let validate = this.settingsValidators.get(adapter.entry.key);
    if (!validate) {
      validate = settingsAjv.compile(adapter.entry.settingsSchema);
      this.settingsValidators.set(adapter.entry.key, validate);
    }
    const copy = { ...adapter.entry.defaultSettings, ...settings };
    if (!validate(copy)) {
      throw errors.validationFailed((validate.errors ?? []).map((e) => ({ field: `body/settings${e.instancePath}`, message: e.message ?? 'is not valid' })));
    }
    return copy;
  }
}
