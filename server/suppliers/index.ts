import type { Config } from '../platform/config';
import { createAliExpressAdapter } from './aliexpress/adapter';
import { aliExpressSettings } from './aliexpress/config';
import { cjSettings } from './cj/config';
import { printfulSettings } from './printful/config';
import { createPrintfulAdapter } from './printful/adapter';
import { sandboxSettings } from './sandbox/config';
import { createCjAdapter } from './cj/adapter';
import { SupplierRegistry } from './registry';
import { createSandboxAdapters } from './sandbox/adapter';

/** Each supplier's own settings, as the config.ts beside its adapter reads them (a bad value stops the start). */
export function supplierSettings(env: NodeJS.ProcessEnv) {
  return { sandbox: sandboxSettings(env), cj: cjSettings(env), aliexpress: aliExpressSettings(env), printful: printfulSettings(env) };
}

/** The suppliers this process can reach, as the configuration allows, and those the operator switched off. */
export function supplierRegistry(config: Config): SupplierRegistry {
  const settings = supplierSettings(config.env);
  const aliExpress = settings.aliexpress;
  return new SupplierRegistry(
    [
      ...(config.sandboxSupplierUrl
        ? createSandboxAdapters({ baseUrl: config.sandboxSupplierUrl, limits: settings.sandbox, secondWarehouse: config.sandboxSupplierEu })
        : []),
      createCjAdapter({ baseUrl: settings.cj.baseUrl }),
      createPrintfulAdapter({ baseUrl: settings.printful.baseUrl }),
      // Without the operator's app nothing can be signed: AliExpress is then not in the catalogue at all.
      ...(aliExpress ? [createAliExpressAdapter({ app: { appKey: aliExpress.appKey, appSecret: aliExpress.appSecret, baseUrl: aliExpress.apiBaseUrl } })] : []),
    ],
    new Set(config.disabledSuppliers),
  );
}
