/** jest.pooled.config.js's teardown: the usual one (the template dropped), then the cluster. */
import globalTeardown from './global-teardown.mjs';

export default async function pooledTeardown() {
  await globalTeardown();
  await globalThis.__STORE_SUPPLIERS_CLUSTER__?.destroy();
}
