import { performance } from 'node:perf_hooks';
import { connectedStore, developerKey, Figure, startBenchSandbox, startBenchService } from './lib';
import { median } from './load';

const PRODUCTS = 50;
const LATENCY_MS = 20;
const REPEATS = 3;

/**
 * One 50-product inline import (POST /api/store-suppliers/:storeId/:id/import) with 20 ms added supplier latency,
 * end to end, against the same 50 products fetched one after another straight from the sandbox.
 */
export async function importBench(databaseUrl: string): Promise<Figure[]> {
  const sandbox = await startBenchSandbox();
  const svc = await startBenchService(databaseUrl, {}, { sandboxUrl: sandbox.baseUrl });
  try {
    const { key } = await developerKey(svc);
    const account = await sandbox.control<{ liveKey: string }>('POST', '/accounts', { balanceMinor: 1_000_000, testBalanceMinor: 1_000_000 });
    // 50 distinct products that have something to import (variants priced in USD, as every sandbox product is).
    const page = await sandbox.v1<{ items: Array<{ id: string; variants: unknown[] }> }>(account.liveKey, 'GET', '/products?page=2&pageSize=100');
    const ids = page.items
      .filter((p) => p.variants.length > 0)
      .slice(0, PRODUCTS)
      .map((p) => p.id);
    if (ids.length !== PRODUCTS) throw new Error(`only ${ids.length} products to import`);

    // Imports refuse duplicates per store: a fresh store (and connection) for every timed import, plus one to warm up on.
    const stores = [];
    for (let i = 0; i <= REPEATS; i++) stores.push(await connectedStore(svc, sandbox, key, `Bench import ${i}`, account));

    const importInto = async (store: { storeId: string; connectionId: string }, products: string[]) => {
      const started = performance.now();
      const res = await fetch(`${svc.baseUrl}/api/store-suppliers/${store.storeId}/${store.connectionId}/import`, {
        method: 'POST',
        headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
        body: JSON.stringify({ products: products.map((supplierProductId) => ({ supplierProductId })), priceRule: { multiplier: '2', endingMinor: 99 } }),
      });
      const text = await res.text();
      const ms = performance.now() - started;
      if (res.status !== 201) throw new Error(`import answered ${res.status}: ${text}`);
      const result = (JSON.parse(text) as { result: { products: unknown[]; links: unknown[]; errors: unknown[] } }).result;
      if (result.products.length !== products.length || result.links.length !== products.length || result.errors.length) {
        throw new Error(`import created ${result.products.length} products and ${result.links.length} links, errors ${JSON.stringify(result.errors)}`);
      }
      return ms;
    };
    const fetchSequentially = async (products: string[]) => {
      const started = performance.now();
      for (const id of products) await sandbox.v1(account.liveKey, 'GET', `/products/${encodeURIComponent(id)}`);
      return performance.now() - started;
    };

    await sandbox.control('POST', '/faults', { latencyMs: LATENCY_MS });
    // Warm-up, untimed: the first request through each code path pays for JIT and lazy loading.
    await fetchSequentially(ids.slice(0, 5));
    await importInto(stores[REPEATS], ids.slice(0, 5));

    const imports: number[] = [];
    const fetches: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      fetches.push(await fetchSequentially(ids));
      imports.push(await importInto(stores[i], ids));
    }
    await sandbox.control('DELETE', '/faults');

    const subject = median(imports);
    const baseline = median(fetches);
    const ms = (xs: number[]) => xs.map((x) => Math.round(x)).join(', ');
    return [
      {
        name: `Import of ${PRODUCTS} products, inline (supplier latency +${LATENCY_MS} ms per call)`,
        subject: { value: Math.round(subject), unit: 'ms (median of 3)' },
        baseline: { value: Math.round(baseline), unit: 'ms (median of 3)' },
        baselineLabel: `the same ${PRODUCTS} products fetched one after another straight from the sandbox`,
        ratio: subject / baseline,
        command: 'npm run bench -- import',
        notes:
          `Ratio = import time ÷ sequential fetch time; below 1 the whole import (auth, credit charge, fetching ${PRODUCTS} products 8 at a time, one transaction per product with its variants and link, the answer with every product and link) beats merely fetching the products one by one. ` +
          `Runs (ms): import ${ms(imports)}; fetch ${ms(fetches)}; each import into a fresh store, after one untimed 5-product warm-up.`,
      },
    ];
  } finally {
    await svc.stop();
    await sandbox.close();
  }
}
