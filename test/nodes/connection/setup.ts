/** The set-up of the connection operations' tests: a shop with one product, and a test-mode connection beside its live one. */
import { ServiceClient } from '../../support/harness';
import { openShop, Shop } from '../../support/orders';
import { resourceFile } from '../support/world';

/** A second connection of the shop, in test mode, for the operations that change or remove one. */
async function connectTestMode(svc: ServiceClient, shop: Shop): Promise<string> {
	const res = await svc.call('POST', `/api/store-suppliers/${shop.storeId}`, {
		key: shop.owner.key,
		body: { supplierKey: 'sandbox', mode: 'test', credentials: { apiKey: shop.account.testKey } },
	});
	if (res.status !== 201) throw new Error(res.text);
	return res.body.result.id;
}

export function connectionFile(opts: { testConnection?: boolean } = {}) {
	const file = resourceFile('connection', 'connection', async (w) => {
		const shop = await openShop(w.svc, w.sandbox, { page: 5, products: 1 });
		return { ...shop, testConnId: opts.testConnection ? await connectTestMode(w.svc, shop) : '' };
	});
	return { ...file, base: () => `/api/store-suppliers/${file.s.shop.storeId}` };
}
