import type { Config } from '../platform/config';
import { createAliExpressAdapter } from './aliexpress/adapter';
import { createCjAdapter } from './cj/adapter';
import { SupplierRegistry } from './registry';
import { createSandboxAdapters } from './sandbox/adapter';

/** The suppliers this process can reach, as the configuration allows, and those the operator switched off. */
export function supplierRegistry(config: Config): SupplierRegistry {
  return new SupplierRegistry(
    [
      ...(config.sandboxSupplierUrl ? createSandboxAdapters({ baseUrl: config.sandboxSupplierUrl, limits: { callsInFlight: config.sandboxSupplierCallsInFlight, requestsPerSecond: config.sandboxSupplierRequestsPerSecond } }) : []),
      createCjAdapter({ baseUrl: config.cjApiBaseUrl }),
      // Without the operator's app nothing can be signed: AliExpress is then not in the catalogue at all.
      ...(config.aliExpress ? [createAliExpressAdapter({ app: { appKey: config.aliExpress.appKey, appSecret: config.aliExpress.appSecret, baseUrl: config.aliExpress.apiBaseUrl } })] : []),
    ],
    new Set(config.disabledSuppliers),
  );
}
