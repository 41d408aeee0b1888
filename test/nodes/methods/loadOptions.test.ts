/** The options lists of the node's fields (methods/loadOptions.ts): suppliers of the catalogue, the store's connections. */
import { listSearch, loadOptions } from '../../../nodes/StoreSuppliers/methods';
import { openShop } from '../../support/orders';
import { loadOptionsContext, rl } from '../support/context';
import { credentialsOf, leakScanTest, setUp } from '../support/world';

const s = setUp('methods', (w) => openShop(w.svc, w.sandbox, { page: 13, products: 1 }));
const base = () => `/api/store-suppliers/${s.shop.storeId}`;

test("the connections and the catalogue's suppliers follow the chosen store, with no doubled words in their names", async () => {
  const inStore = loadOptionsContext({ credentials: credentialsOf(s.world.svc, s.shop.owner.key), parameters: { store: rl(s.shop.storeId, 'list') } });
  expect((await loadOptions.getConnections.call(inStore.ctx)).map((o) => o.value)).toEqual([s.shop.connId]);
  expect(inStore.rec.last()).toMatchObject({ method: 'GET', path: base() });
  const suppliers = await loadOptions.getSuppliers.call(inStore.ctx);
  expect(inStore.rec.last()).toMatchObject({ method: 'GET', path: `${base()}/catalogue` });
  expect(suppliers.map((o) => o.value)).toEqual(expect.arrayContaining(['sandbox', 'sandbox-signin', 'cj', 'printful']));
  expect(suppliers.find((o) => o.value === 'printful')?.name).toBe('Printful (API key)');
  // No doubled words: the catalogue's own "(sign-in)" is not repeated, nor the account label's "(live)".
  expect(suppliers.find((o) => o.value === 'sandbox-signin')?.name).toBe('Sandbox Supplier (sign-in)');
  expect(suppliers.find((o) => o.value === 'sandbox')?.name).toMatch(/^[^()]+ \(API key\)$/);
  const conns = await listSearch.searchConnections.call(inStore.ctx);
  for (const name of [...suppliers.map((o) => o.name), conns.results[0].name]) expect(name).not.toMatch(/(\([^)]+\)).*\1/);

  const none = loadOptionsContext({ credentials: credentialsOf(s.world.svc, s.shop.owner.key), parameters: {} });
  expect(await loadOptions.getSuppliers.call(none.ctx)).toEqual([]);
  expect(await loadOptions.getConnections.call(none.ctx)).toEqual([]);
  expect(none.rec.requests).toHaveLength(0);
});

leakScanTest(s);
