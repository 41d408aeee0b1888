import crypto from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { connectTestMode, linkWithBackup } from '../support/backup';
import { createKey, createStore, Developer, leakScanTest, newDeveloper, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, submit } from '../support/orders';

let sandbox: Sandbox;
let svc: Service;
let owner: Developer;
let storeId: string;
const clients: Client[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'mcp', sandbox });
  owner = await newDeveloper(svc, { plan: 'pro', credits: 500 });
  storeId = await createStore(svc, owner.key);
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await svc.stop();
  await sandbox.close();
});

/** The SDK's own client over real HTTP, configured from the key's assistant link. */
async function connect(key: string): Promise<Client> {
  const current = await svc.call('GET', '/api/api-key/current', { key });
  const link = current.body.result.assistantLink;
  expect(link).toMatchObject({ url: `${svc.baseUrl}/api/mcp`, transport: 'streamable-http' });
  const client = new Client({ name: 'test-assistant', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(link.url), { requestInit: { headers: { 'X-API-Key': key } } }));
  clients.push(client);
  return client;
}

const result = (r: any) => JSON.parse(r.content[0].text);

test('the assistant link is shown with the key in key management and in the key check', async () => {
  const created = await svc.call('POST', '/api/api-keys', { session: owner.session, body: { name: 'assistant' } });
  expect(created.body.result.assistantLink).toEqual({
    url: `${svc.baseUrl}/api/mcp`,
    transport: 'streamable-http',
    headers: { 'X-API-Key': created.body.result.key },
  });
  const listed = await svc.call('GET', '/api/api-keys', { session: owner.session });
  expect(listed.body.result[0].assistantLink.headers['X-API-Key']).toMatch(/^ssk_•+/);
});

test('every supplier route is a tool, with read-only and changing tools marked', async () => {
  const client = await connect(owner.key);
  const { tools } = await client.listTools();
  const doc = (await svc.call('GET', '/api/store-suppliers/openapi.json')).body;
  const supplierOps: Array<{ id: string; readOnly: boolean }> = [];
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    if (!path.startsWith('/api/store-suppliers/')) continue;
    for (const op of Object.values(methods))
      if (op.security.some((s: object) => 'apiKey' in s)) supplierOps.push({ id: op.operationId, readOnly: op['x-read-only'] });
  }
  // The spec lists 12 connection, 11 product, import and link, and 7 supplier order routes; the service adds the
  // list of import jobs (docs/decisions.md), the 9 event subscription routes (issue 26), the reroute (issue 34) and
  // the store's routing rule, read and set (issue 42), the profit report (issue 41), and after shipping (issue 54) a
  // delivery attention's acknowledgement, five claim routes and four return routes; and (issue 53) a store order with
  // its payments and its refund.
  for (const id of ['getStoreOrder', 'refundStoreOrder']) supplierOps.push({ id, readOnly: id === 'getStoreOrder' });
  expect(supplierOps.length).toBe(56);
  expect(tools.map((t) => t.name).sort()).toEqual(supplierOps.map((o) => o.id).sort());
  for (const op of supplierOps) {
    const tool = tools.find((t) => t.name === op.id)!;
    expect([op.id, tool.annotations?.readOnlyHint, tool.annotations?.destructiveHint]).toEqual([op.id, op.readOnly, !op.readOnly]);
    expect(tool.inputSchema.type).toBe('object');
    expect(tool.description).toBeTruthy();
  }
  const submit = tools.find((t) => t.name === 'submitOrderPart')!;
  expect(submit.inputSchema.required).toEqual(expect.arrayContaining(['storeId', 'orderId', 'groupKey']));
});

test('backup suppliers through the assistant: the link tools take alternates, the automation tool the reroute rule, the reroute tool reroutes a paused order', async () => {
  // Orders stop at the cost limit before anything is sent; the rule reroutes on nothing, so the tool does it.
  const shop = await openShop(svc, sandbox, {
    page: 8,
    products: 1,
    automation: { costLimit: { amountMinor: 1, currency: 'USD' }, reroute: { reasons: [], maxCostIncreasePercent: 10 } },
  });
  const backupId = await connectTestMode(svc, shop);
  const client = await connect(shop.owner.key);
  const { tools } = await client.listTools();
  const body = (name: string) => (tools.find((t) => t.name === name)!.inputSchema.properties as any).body;
  for (const name of ['createProductLink', 'updateProductLink'])
    expect(body(name).properties.alternates.items.required).toEqual(['storeVariantId', 'connectionId', 'supplierProductId', 'supplierVariantId']);
  expect(body('changeSupplierAutomation').properties.reroute.properties.reasons.items.enum).toEqual([
    'variantUnavailable',
    'destinationUnsupported',
    'costAboveLimit',
    'insufficientBalance',
    'supplierRefused',
  ]);
  expect(body('rerouteSupplierOrder').properties.connectionId.format).toBe('uuid');
  const reroute = tools.find((t) => t.name === 'rerouteSupplierOrder')!;
  expect([reroute.inputSchema.required, reroute.annotations?.destructiveHint]).toEqual([expect.arrayContaining(['storeId', 'supplierOrderId']), true]);

  // Alternates set through the tool answer as the REST route does; a bad one is the same 422.
  const linkId = await linkWithBackup(svc, shop, backupId);
  const p = shop.products[0];
  const alternate = { storeVariantId: p.variantId, connectionId: shop.connId, supplierProductId: p.supplierProductId, supplierVariantId: p.supplierVariantId };
  const refused = await client.callTool({ name: 'updateProductLink', arguments: { storeId: shop.storeId, linkId, body: { alternates: [alternate] } } });
  expect([refused.isError, result(refused).error.code]).toEqual([true, 'alternateInvalid']);
  const rule = await client.callTool({
    name: 'changeSupplierAutomation',
    arguments: { storeId: shop.storeId, id: backupId, body: { reroute: { reasons: ['supplierRefused'], maxCostIncreasePercent: 5 } } },
  });
  expect(result(rule).result.automation.reroute).toEqual({ reasons: ['supplierRefused'], maxCostIncreasePercent: 5 });

  const order = await placeOrder(svc, shop);
  const paused = (await submit(svc, shop, order.id)).body.result;
  expect(paused).toMatchObject({ status: 'needsReview', reviewReason: 'costAboveLimit' });
  const rerouted = await client.callTool({
    name: 'rerouteSupplierOrder',
    arguments: { storeId: shop.storeId, supplierOrderId: paused._id, body: { connectionId: backupId } },
  });
  expect(rerouted.isError).toBe(false);
  const so = result(rerouted).result;
  expect(so).toMatchObject({ _id: paused._id, status: 'cancelled' });
  expect(so.events.find((e: any) => e.type === 'rerouted').details).toMatchObject({
    by: 'manual',
    reason: 'costAboveLimit',
    to: { connectionId: backupId },
    costDifferenceMinor: 0,
  });
  const again = await client.callTool({ name: 'rerouteSupplierOrder', arguments: { storeId: shop.storeId, supplierOrderId: paused._id, body: {} } });
  expect([again.isError, result(again).error.code]).toEqual([true, 'invalidState']);
});

test("the routing rule through the assistant: the store's read and set as over REST, a link's own through the link tool, a malformed one the same 400", async () => {
  const client = await connect(owner.key);
  const { tools } = await client.listTools();
  const change = tools.find((t) => t.name === 'changeSupplierRouting')!;
  expect([change.inputSchema.required, change.annotations?.readOnlyHint]).toEqual([['storeId', 'body'], false]);
  expect(tools.find((t) => t.name === 'getSupplierRouting')!.annotations?.readOnlyHint).toBe(true);

  const before = await client.callTool({ name: 'getSupplierRouting', arguments: { storeId } });
  expect(result(before).result).toEqual({ routing: { rule: 'primary' }, updatedAt: null });
  const set = await client.callTool({
    name: 'changeSupplierRouting',
    arguments: { storeId, body: { routing: { rule: 'fastest', maxCostAboveCheapestPercent: 8 } } },
  });
  expect([set.isError, result(set).result.routing]).toEqual([false, { rule: 'fastest', maxCostAboveCheapestPercent: 8 }]);
  expect((await svc.call('GET', `/api/store-suppliers/${storeId}/routing`, { key: owner.key })).body.result.routing).toEqual({
    rule: 'fastest',
    maxCostAboveCheapestPercent: 8,
  });
  const bad = await client.callTool({ name: 'changeSupplierRouting', arguments: { storeId, body: { routing: { rule: 'fastest' } } } });
  expect([bad.isError, result(bad).error.code]).toEqual([true, 'validationFailed']);

  const shop = await openShop(svc, sandbox, { page: 7, products: 1 });
  const shopClient = await connect(shop.owner.key);
  const link = (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/links?productId=${shop.products[0].productId}`, { key: shop.owner.key })).body
    .result.items[0];
  const own = await shopClient.callTool({
    name: 'updateProductLink',
    arguments: { storeId: shop.storeId, linkId: link.id, body: { routing: { rule: 'lowestLandedCost' } } },
  });
  expect([own.isError, result(own).result.routing]).toEqual([false, { rule: 'lowestLandedCost' }]);
});

test('the profit report through the assistant: a read-only tool with from, to and groupBy, answering what REST answers; a bad range the same 400', async () => {
  const shop = await openShop(svc, sandbox, { page: 9, products: 1 });
  const sent = await submit(svc, shop, (await placeOrder(svc, shop, { quantity: 2 })).id);
  expect([200, 202]).toContain(sent.status);
  const client = await connect(shop.owner.key);
  const tool = (await client.listTools()).tools.find((t) => t.name === 'getProfitReport')!;
  expect([tool.inputSchema.required, tool.annotations?.readOnlyHint, Object.keys(tool.inputSchema.properties ?? {}).sort()]).toEqual([
    ['storeId', 'from', 'to'],
    true,
    ['cursor', 'from', 'groupBy', 'pageSize', 'storeId', 'to'],
  ]);
  const today = new Date().toISOString().slice(0, 10);
  const so = await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders/${sent.body.result._id}`, { key: shop.owner.key });
  const viaTool = result(
    await client.callTool({ name: 'getProfitReport', arguments: { storeId: shop.storeId, from: today, to: today, groupBy: 'connection' } }),
  );
  const viaRest = (
    await svc.call('GET', `/api/store-suppliers/${shop.storeId}/reports/profit?from=${today}&to=${today}&groupBy=connection`, { key: shop.owner.key })
  ).body;
  expect(viaTool).toEqual(viaRest);
  expect(viaTool.result.totals).toMatchObject({
    parts: 1,
    revenueMinor: so.body.result.profit.revenueMinor,
    landedCostMinor: so.body.result.profit.landedCostMinor,
    supplierCreditMinor: 0,
    refundMinor: 0,
  });
  // The tool says what the figures are: refunds and fees split to parts and products (issue 53).
  expect(tool.description).toContain('`refundMinor` shows them');
  const bad = await client.callTool({ name: 'getProfitReport', arguments: { storeId: shop.storeId, from: today, to: '1999-12-31' } });
  expect([bad.isError, result(bad).error.code]).toEqual([true, 'validationFailed']);
});

test('after shipping through the assistant: the claim tools (a part not shipped yet cannot be claimed) and the acknowledgement (a reason the order does not have)', async () => {
  const shop = await openShop(svc, sandbox, { page: 10, products: 1 });
  const order = await placeOrder(svc, shop);
  const sent = await submit(svc, shop, order.id, { payNow: true });
  const client = await connect(shop.owner.key);
  const soId = sent.body.result._id;
  const open = await client.callTool({
    name: 'openSupplierClaim',
    arguments: {
      storeId: shop.storeId,
      supplierOrderId: soId,
      body: { reason: 'notReceived', expectation: 'reship', items: [{ itemId: order.items[0].id, quantity: 1 }] },
    },
  });
  expect([open.isError, result(open).error.code]).toEqual([true, 'invalidState']);
  expect(result(await client.callTool({ name: 'listSupplierClaims', arguments: { storeId: shop.storeId, supplierOrderId: soId } }))).toEqual({
    result: { items: [] },
  });
  const ack = await client.callTool({
    name: 'acknowledgeDeliveryAttention',
    arguments: { storeId: shop.storeId, supplierOrderId: soId, body: { reason: 'noTracking' } },
  });
  expect([ack.isError, result(ack).error.code]).toEqual([true, 'attentionChanged']);
  // A return (issue 54, item 3): a part not shipped yet has none; the tool says what a refund needs besides.
  const ret = await client.callTool({
    name: 'recordSupplierOrderReturn',
    arguments: { storeId: shop.storeId, supplierOrderId: soId, body: { reason: 'damaged', items: [{ itemId: order.items[0].id, quantity: 1 }] } },
  });
  expect([ret.isError, result(ret).error.code]).toEqual([true, 'invalidState']);
  expect(result(await client.callTool({ name: 'listSupplierOrderReturns', arguments: { storeId: shop.storeId, supplierOrderId: soId } }))).toEqual({
    result: { items: [] },
  });
  const { tools } = await client.listTools();
  expect(tools.find((t) => t.name === 'recordSupplierOrderReturn')!.description).toContain('needs payments.manage too');
});

test("a store order's payments through the assistant: the order with its providerPayments and amountRefundedMinor; a refund of an order never paid is refused", async () => {
  const shop = await openShop(svc, sandbox, { page: 12, products: 1 });
  const order = await placeOrder(svc, shop);
  const client = await connect(shop.owner.key);
  const got = await client.callTool({ name: 'getStoreOrder', arguments: { storeId: shop.storeId, orderId: order.id } });
  expect(result(got).result).toMatchObject({ id: order.id, paymentStatus: 'none', amountRefundedMinor: 0, providerPayments: [] });
  const refund = await client.callTool({
    name: 'refundStoreOrder',
    arguments: { storeId: shop.storeId, orderId: order.id, body: { amountMinor: 100, reason: 'Returned' } },
  });
  expect([refund.isError, result(refund).error.code]).toEqual([true, 'nothingToRefund']);
});

test('a read tool and a write tool answer what the REST routes answer, and charge the same credits', async () => {
  const client = await connect(owner.key);
  const acc = await sandbox.account(4242);
  const credits = async () => (await svc.db.query('SELECT credits FROM accounts WHERE id = $1', [owner.accountId])).rows[0].credits;
  const before = await credits();
  const connected = await client.callTool({
    name: 'connectSupplier',
    arguments: { storeId, body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: acc.liveKey } } },
  });
  expect(connected.isError).toBe(false);
  const conn = result(connected).result;
  expect(conn).toMatchObject({ supplierKey: 'sandbox', hasCredentials: true, createdByKeyId: owner.keyId });
  expect(before - (await credits())).toBe(5);

  const viaTool = await client.callTool({ name: 'listSupplierConnections', arguments: { storeId } });
  const viaRest = await svc.call('GET', `/api/store-suppliers/${storeId}`, { key: owner.key });
  expect(result(viaTool)).toEqual(viaRest.body);
  const balance = await client.callTool({ name: 'getSupplierBalance', arguments: { storeId, id: conn.id } });
  expect(result(balance).result).toEqual({ amountMinor: 4242, currency: 'USD' });
});

test('validation, permission and plan errors come back as tool errors with the same codes', async () => {
  const client = await connect(owner.key);
  const bad = await client.callTool({ name: 'listSupplierOrders', arguments: { storeId, pageSize: 500 } });
  expect(bad.isError).toBe(true);
  expect(result(bad).error.code).toBe('validationFailed');

  const viewer = await newDeveloper(svc);
  await svc.call('PUT', `/api/stores/${storeId}/staff`, { key: owner.key, body: { email: viewer.email, permissions: ['suppliers.view'] } });
  const viewerClient = await connect(viewer.key);
  const denied = await viewerClient.callTool({ name: 'startSupplierSignIn', arguments: { storeId, body: { supplierKey: 'sandbox-signin', mode: 'live' } } });
  expect(denied.isError).toBe(true);
  expect(result(denied).error).toMatchObject({ code: 'permissionDenied', details: [expect.objectContaining({ permission: 'suppliers.manage' })] });

  const free = await newDeveloper(svc, { plan: 'free' });
  const freeStore = await createStore(svc, free.key);
  const freeClient = await connect(free.key);
  const gated = await freeClient.callTool({ name: 'searchSupplierProducts', arguments: { storeId: freeStore, id: crypto.randomUUID() } });
  expect(result(gated).error.code).toBe('planRequired');
});

test("an own-scope key cannot see another key's records through the assistant; a scope change applies to the next call", async () => {
  const own = await createKey(svc, owner.session, 'own assistant', 'own');
  const client = await connect(own.key);
  const listed = await client.callTool({ name: 'listSupplierConnections', arguments: { storeId } });
  expect(result(listed).result).toEqual([]);
  const [conn] = (await svc.call('GET', `/api/store-suppliers/${storeId}`, { key: owner.key })).body.result;
  const hidden = await client.callTool({ name: 'getSupplierBalance', arguments: { storeId, id: conn.id } });
  expect(hidden.isError).toBe(true);
  expect(result(hidden).error.code).toBe('notFound');
  await svc.call('PATCH', `/api/api-keys/${own.id}`, { session: owner.session, body: { recordScope: 'account' } });
  const now = await client.callTool({ name: 'getSupplierBalance', arguments: { storeId, id: conn.id } });
  expect(now.isError).toBe(false);
});

test("a revoked key's open session fails on its very next call", async () => {
  const temp = await createKey(svc, owner.session, 'to revoke', 'account');
  const client = await connect(temp.key);
  expect((await client.callTool({ name: 'listSupplierCatalogue', arguments: { storeId } })).isError).toBe(false);
  await svc.call('DELETE', `/api/api-keys/${temp.id}`, { session: owner.session });
  await expect(client.callTool({ name: 'listSupplierCatalogue', arguments: { storeId } })).rejects.toThrow(/401|unauthenticated/i);
  await expect(client.listTools()).rejects.toThrow();
});

test('without a key the endpoint answers the same 401 as every route', async () => {
  const res = await svc.call('POST', '/api/mcp', {
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    headers: { Accept: 'application/json, text/event-stream' },
  });
  const rest = await svc.call('GET', '/api/api-key/current');
  expect(res.status).toBe(401);
  expect(res.text).toBe(rest.text);
});

leakScanTest();
