/** Connection operations, and the store and connection lists the editor loads, against a real service. */

import { listSearch, loadOptions } from '../../nodes/StoreSuppliers/methods';
import { leakScanTest } from '../support/harness';
import { openShop, Shop } from '../support/orders';
import { loadOptionsContext, rl } from './support/context';
import { credentialsOf, runNode, runNodeError, startWorld, World } from './support/world';

let world: World;
let shop: Shop;
let testConnId: string;

beforeAll(async () => {
	world = await startWorld('node-connections');
	shop = await openShop(world.svc, world.sandbox, { page: 5, products: 1 });
}, 120000);
afterAll(async () => {
	await world.stop();
});

const creds = () => credentialsOf(world.svc, shop.owner.key);
const base = () => `/api/store-suppliers/${shop.storeId}`;
const conn = (params: Record<string, unknown>) => ({ resource: 'connection', store: rl(shop.storeId, 'list'), ...params });

test('get catalogue: one item per supplier the store can connect', async () => {
	const { json, out, rec } = await runNode(creds(), conn({ operation: 'getCatalogue' }));
	expect(rec.requests).toHaveLength(1);
	expect(rec.last()).toMatchObject({ method: 'GET', path: `${base()}/catalogue`, query: {}, body: undefined, status: 200 });
	expect(json.map((e) => e.key)).toEqual(expect.arrayContaining(['sandbox', 'sandbox-signin']));
	expect(json.find((e) => e.key === 'sandbox')).toMatchObject({ capabilities: { authKind: 'apiKey', balance: true } });
	expect(out.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
});

test('connect: sends the supplier key, mode, the merchant\'s key at the supplier and settings; the answer has no credentials', async () => {
	const { json, rec } = await runNode(
		creds(),
		conn({
			operation: 'connect',
			supplierKey: 'sandbox',
			mode: 'test',
			supplierApiKey: shop.account.testKey,
			additionalFields: { settings: '{"shippingSpeed":"express"}' },
		}),
	);
	expect(rec.last()).toMatchObject({
		method: 'POST',
		path: base(),
		body: { supplierKey: 'sandbox', mode: 'test', credentials: { apiKey: shop.account.testKey }, settings: { shippingSpeed: 'express' } },
		status: 201,
	});
	expect(json[0]).toMatchObject({ supplierKey: 'sandbox', mode: 'test', enabled: true, hasCredentials: true, settings: { shippingSpeed: 'express' } });
	expect(JSON.stringify(json[0])).not.toContain(shop.account.testKey);
	testConnId = json[0].id as string;
});

test('connect with a key the supplier refuses: the service\'s code and message', async () => {
	const { error, rec } = await runNodeError(
		creds(),
		conn({ operation: 'connect', supplierKey: 'sandbox', mode: 'live', supplierApiKey: 'sbx_live_nobody', additionalFields: {} }),
	);
	expect(rec.last().body).toEqual({ supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: 'sbx_live_nobody' } });
	expect(error.name).toBe('NodeApiError');
	expect(error.message).toMatch(/\[(credentialsRejected|alreadyConnected)\]$/);
	expect(error.httpCode).toMatch(/^4/);
});

test('get many: the store\'s connections (the list is not paged, so no paging fields are sent); limit cuts it', async () => {
	const all = await runNode(creds(), conn({ operation: 'getAll', returnAll: true }));
	expect(all.rec.last()).toMatchObject({ method: 'GET', path: base(), query: {} });
	expect(all.json.map((c) => c.id).sort()).toEqual([shop.connId, testConnId].sort());
	const one = await runNode(creds(), conn({ operation: 'getAll', returnAll: false, limit: 1 }));
	expect(one.rec.last().query).toEqual({});
	expect(one.json).toHaveLength(1);
});

test('test, balance and impact of a connection', async () => {
	const tested = await runNode(creds(), conn({ operation: 'test', connection: rl(shop.connId, 'list') }));
	expect(tested.rec.last()).toMatchObject({ method: 'POST', path: `${base()}/${shop.connId}/test`, body: undefined });
	expect(tested.json[0]).toMatchObject({ id: shop.connId, health: { status: 'healthy' } });

	const balance = await runNode(creds(), conn({ operation: 'getBalance', connection: rl(shop.connId) }));
	expect(balance.rec.last()).toMatchObject({ method: 'GET', path: `${base()}/${shop.connId}/balance` });
	expect(balance.json[0]).toEqual({ amountMinor: 10_000_000, currency: 'USD' });

	const impact = await runNode(creds(), conn({ operation: 'getImpact', connection: rl(shop.connId) }));
	expect(impact.rec.last()).toMatchObject({ method: 'GET', path: `${base()}/${shop.connId}/impact` });
	expect(impact.json[0]).toEqual({ linkedProducts: 1, openSupplierOrders: 0 });
});

test('replace credentials sends the new key only', async () => {
	const { json, rec } = await runNode(creds(), conn({ operation: 'replaceCredentials', connection: rl(testConnId), supplierApiKey: shop.account.testKey }));
	expect(rec.last()).toMatchObject({ method: 'PUT', path: `${base()}/${testConnId}`, body: { credentials: { apiKey: shop.account.testKey } } });
	expect(json[0]).toMatchObject({ id: testConnId, hasCredentials: true });
});

test('update settings takes JSON text or an object, and refuses text that is not JSON', async () => {
	const asText = await runNode(creds(), conn({ operation: 'updateSettings', connection: rl(testConnId), settings: '{"shippingSpeed":"standard","orderNotePrefix":"n8n"}' }));
	expect(asText.rec.last()).toMatchObject({ method: 'PUT', path: `${base()}/${testConnId}/settings`, body: { settings: { shippingSpeed: 'standard', orderNotePrefix: 'n8n' } } });
	expect(asText.json[0].settings).toEqual({ shippingSpeed: 'standard', orderNotePrefix: 'n8n' });
	const asObject = await runNode(creds(), conn({ operation: 'updateSettings', connection: rl(testConnId), settings: { shippingSpeed: 'express' } }));
	expect(asObject.rec.last().body).toEqual({ settings: { shippingSpeed: 'express' } });
	const bad = await runNodeError(creds(), conn({ operation: 'updateSettings', connection: rl(testConnId), settings: '{nope' }));
	expect(bad.error.name).toBe('NodeOperationError');
	expect(bad.error.message).toBe('Settings is not valid JSON');
	expect(bad.rec.requests).toHaveLength(0);
	const invalid = await runNodeError(creds(), conn({ operation: 'updateSettings', connection: rl(testConnId), settings: '{"shippingSpeed":"teleport"}' }));
	expect(invalid.error.message).toMatch(/\[validationFailed\]$/);
	expect(invalid.error.description).toContain('shippingSpeed');
});

test('update automation sends only the fields given, in the service\'s shape', async () => {
	const { json, rec } = await runNode(
		creds(),
		conn({
			operation: 'updateAutomation',
			connection: rl(testConnId),
			updateFields: { level: 'automatic', automaticPayment: true, costLimitMinor: 5000, costLimitCurrency: 'usd', excludedCountries: 'fr, de' },
		}),
	);
	expect(rec.last()).toMatchObject({
		method: 'PUT',
		path: `${base()}/${testConnId}/automation`,
		body: { level: 'automatic', automaticPayment: true, costLimit: { amountMinor: 5000, currency: 'USD' }, excludedCountries: ['FR', 'DE'] },
	});
	expect(json[0].automation).toMatchObject({ level: 'automatic', automaticPayment: true, costLimit: { amountMinor: 5000, currency: 'USD' }, allowUnpaidOrders: false });
	expect([...((json[0].automation as any).excludedCountries as string[])].sort()).toEqual(['DE', 'FR']);

	const cleared = await runNode(creds(), conn({ operation: 'updateAutomation', connection: rl(testConnId), updateFields: { removeCostLimit: true, costLimitMinor: 1 } }));
	expect(cleared.rec.last().body).toEqual({ costLimit: null });
	expect((cleared.json[0].automation as any).costLimit).toBeNull();

	const empty = await runNodeError(creds(), conn({ operation: 'updateAutomation', connection: rl(testConnId), updateFields: {} }));
	expect(empty.error.message).toBe('Add at least one field to update');
	expect(empty.rec.requests).toHaveLength(0);
});

test('update automation sets the shipping-method rule: cheapest, fastest, or a named service', async () => {
	const named = await runNode(creds(), conn({ operation: 'updateAutomation', connection: rl(testConnId), updateFields: { shippingMethod: 'named', shippingService: ' CAINIAO_STANDARD ' } }));
	expect(named.rec.last()).toMatchObject({ method: 'PUT', path: `${base()}/${testConnId}/automation`, body: { shippingMethod: { rule: 'named', service: 'CAINIAO_STANDARD' } }, status: 200 });
	expect(named.rec.last().body).toEqual({ shippingMethod: { rule: 'named', service: 'CAINIAO_STANDARD' } });
	expect((named.json[0].automation as any).shippingMethod).toEqual({ rule: 'named', service: 'CAINIAO_STANDARD' });

	const fastest = await runNode(creds(), conn({ operation: 'updateAutomation', connection: rl(testConnId), updateFields: { shippingMethod: 'fastest', shippingService: 'ignored without named' } }));
	expect(fastest.rec.last().body).toEqual({ shippingMethod: { rule: 'fastest' } });
	expect((fastest.json[0].automation as any).shippingMethod).toEqual({ rule: 'fastest' });

	const cheapest = await runNode(creds(), conn({ operation: 'updateAutomation', connection: rl(testConnId), updateFields: { shippingMethod: 'cheapest', level: 'manual' } }));
	expect(cheapest.rec.last().body).toEqual({ level: 'manual', shippingMethod: { rule: 'cheapest' } });
	expect((cheapest.json[0].automation as any).shippingMethod).toEqual({ rule: 'cheapest' });

	const noService = await runNodeError(creds(), conn({ operation: 'updateAutomation', connection: rl(testConnId), updateFields: { shippingMethod: 'named', shippingService: '  ' } }));
	expect(noService.error.message).toBe('Shipping Service is required when Shipping Method is Named Service');
	expect(noService.rec.requests).toHaveLength(0);
});

test('enable or disable, start sign-in, and disconnect', async () => {
	const off = await runNode(creds(), conn({ operation: 'setEnabled', connection: rl(testConnId), enabled: false }));
	expect(off.rec.last()).toMatchObject({ method: 'PUT', path: `${base()}/${testConnId}/enabled`, body: { enabled: false } });
	expect(off.json[0]).toMatchObject({ enabled: false });
	const on = await runNode(creds(), conn({ operation: 'setEnabled', connection: rl(testConnId), enabled: true }));
	expect(on.json[0]).toMatchObject({ enabled: true });

	const signIn = await runNode(creds(), conn({ operation: 'startSignIn', supplierKey: 'sandbox-signin', mode: 'live' }));
	expect(signIn.rec.last()).toMatchObject({ method: 'POST', path: `${base()}/oauth/start`, body: { supplierKey: 'sandbox-signin', mode: 'live' } });
	expect(signIn.json[0]).toMatchObject({ authorizationUrl: expect.stringContaining('/console#connect/'), state: expect.any(String), expiresAt: expect.any(String) });

	const gone = await runNode(creds(), conn({ operation: 'disconnect', connection: rl(testConnId) }));
	expect(gone.rec.last()).toMatchObject({ method: 'DELETE', path: `${base()}/${testConnId}`, body: undefined });
	expect(gone.json[0]).toMatchObject({ id: testConnId, disconnected: true, impact: expect.any(Object) });
});

test('each item runs on its own: with Continue On Fail a failing item becomes an error item paired with it', async () => {
	const missing = '00000000-0000-4000-8000-000000000000';
	const { out, rec } = await runNode(
		creds(),
		conn({ operation: 'getBalance', connection: (i: number) => rl([shop.connId, missing, shop.connId][i]) }),
		{ items: [{ json: {} }, { json: {} }, { json: {} }], continueOnFail: true },
	);
	expect(rec.requests.map((r) => r.status)).toEqual([200, 404, 200]);
	expect(out.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	expect(out[1].json).toEqual({ error: 'The connection was not found. [notFound]' });
	expect(out[0].json).toMatchObject({ currency: 'USD' });

	const stopped = await runNodeError(
		creds(),
		conn({ operation: 'getBalance', connection: (i: number) => rl([shop.connId, missing][i]) }),
		{ items: [{ json: {} }, { json: {} }] },
	);
	expect(stopped.error.name).toBe('NodeApiError');
	expect(stopped.error.context.itemIndex).toBe(1);
});

test('the store list searches the stores the key reaches; the connection list and options follow the chosen store', async () => {
	const all = loadOptionsContext({ credentials: creds(), parameters: {} });
	const stores = await listSearch.searchStores.call(all.ctx);
	expect(all.rec.last()).toMatchObject({ method: 'GET', path: '/api/stores' });
	expect(stores.results).toEqual([{ name: 'Test Store', value: shop.storeId }]);
	expect((await listSearch.searchStores.call(all.ctx, 'nothing like it')).results).toEqual([]);

	const inStore = loadOptionsContext({ credentials: creds(), parameters: { store: rl(shop.storeId, 'list') } });
	const conns = await listSearch.searchConnections.call(inStore.ctx);
	expect(inStore.rec.last()).toMatchObject({ method: 'GET', path: base() });
	expect(conns.results).toEqual([{ name: expect.stringMatching(/^sandbox \(live\)/), value: shop.connId }]);
	expect((await listSearch.searchConnections.call(inStore.ctx, 'LIVE')).results).toHaveLength(1);
	expect((await loadOptions.getConnections.call(inStore.ctx)).map((o) => o.value)).toEqual([shop.connId]);
	const suppliers = await loadOptions.getSuppliers.call(inStore.ctx);
	expect(inStore.rec.last()).toMatchObject({ method: 'GET', path: `${base()}/catalogue` });
	expect(suppliers.map((s) => s.value)).toEqual(expect.arrayContaining(['sandbox', 'sandbox-signin']));
	// No doubled words: the catalogue's own "(sign-in)" is not repeated, nor the account label's "(live)".
	expect(suppliers.find((s) => s.value === 'sandbox-signin')?.name).toBe('Sandbox Supplier (sign-in)');
	expect(suppliers.find((s) => s.value === 'sandbox')?.name).toMatch(/^[^()]+ \(API key\)$/);
	expect(conns.results[0].name).toMatch(/^sandbox \(live\) – \S+$/);
	for (const name of [...suppliers.map((s) => s.name), conns.results[0].name]) expect(name).not.toMatch(/(\([^)]+\)).*\1/);

	const none = loadOptionsContext({ credentials: creds(), parameters: {} });
	expect((await listSearch.searchConnections.call(none.ctx)).results).toEqual([]);
	expect(none.rec.requests).toHaveLength(0);
});

leakScanTest();
