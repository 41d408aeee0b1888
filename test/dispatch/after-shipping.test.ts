/**
 * After shipping, against the sandbox supplier over real HTTP (issue 54): the delivery watch raises an attention when a
 * parcel stops moving on the sandbox's clock (the status stays), clears it when the parcel moves, and takes a person's
 * acknowledgement; a claim is sent once under its own id and followed until the sandbox decides: a reship becomes one
 * new supplier order, sent once and shipped, a refund is recorded in the supplier's currency and the store's.
 */
import { createKey, createStore, eventually, leakScanTest, newDeveloper, Sandbox, seen, Service, startSandbox, startService } from '../support/harness';
import { RunningFakePrintful, startFakePrintful } from '../fakes/printful';
import { openPrintfulShop, PRINTFUL_US, printfulControl } from '../support/printful';
import { openShop, placeOrder, received, Shop, submit } from '../support/orders';
import { RunningFakeCj, startFakeCj } from '../fakes/cj';
import { cjControl } from '../support/reroute';
import { ApiError, clientFor, rejectionOf } from '../client/support';

let sandbox: Sandbox;
let fake: RunningFakeCj;
let printful: RunningFakePrintful;
let svc: Service;
beforeAll(async () => {
  sandbox = await startSandbox();
  fake = await startFakeCj();
  printful = await startFakePrintful({ requestsPerMinute: 100_000 });
  svc = await startService({
    label: 'after-shipping',
    sandbox,
    publicBaseUrl: true,
    env: {
      CJ_API_BASE_URL: fake.baseUrl,
      PRINTFUL_API_BASE_URL: printful.baseUrl,
      DISPATCH_SWEEP_SECONDS: '1',
      DISPATCH_SWEEP_STALE_SECONDS: '2',
      CLAIM_CHECK_SECONDS: '2',
    },
  });
});
afterAll(async () => {
  await svc?.stop();
  await fake?.close();
  await printful?.close();
  await sandbox?.close();
});

const api = (shop: Shop) => `/api/store-suppliers/${shop.storeId}`;
const getSo = (shop: Shop, id: string) => svc.call('GET', `${api(shop)}/orders/${id}`, { key: shop.owner.key }).then((r) => r.body.result);
const until = <T>(what: string, check: () => Promise<T | undefined | false>, ms = 30000) =>
  eventually(async () => (await check()) || undefined, ms, what) as Promise<T>;
const outbox = async (soId: string) =>
  (await svc.db.query(`SELECT type FROM event_outbox WHERE resource_key = $1 ORDER BY seq`, [`supplierOrder:${soId}`])).rows.map((r) => r.type);

/** A part sent, paid and shipped at the sandbox, the shipment read back. */
async function shippedPart(shop: Shop) {
  const order = await placeOrder(svc, shop);
  const sent = await submit(svc, shop, order.id, { payNow: true });
  expect(sent.body.result.status).toBe('confirmed');
  const so = sent.body.result;
  await sandbox.control('POST', `/orders/${so.supplierOrderId}/ship`, { carrier: 'SandboxPost' });
  const shipped = await until('the shipment read back', async () => {
    const now = await getSo(shop, so._id);
    return now.status === 'shipped' && now.tracking?.events.length ? now : undefined;
  });
  return { order, so: shipped };
}

test('the watch: a stalled parcel raises noMovement on the clock (the status stays), moving clears it, a person acknowledges it, an exception is raised at once', async () => {
  const shop = await openShop(svc, sandbox, { page: 2 });
  const { order, so } = await shippedPart(shop);
  expect(so.tracking).toMatchObject({
    events: [expect.objectContaining({ description: 'Picked up by the carrier' })],
    exception: null,
    promisedMaxDays: expect.any(Number),
  });
  expect(so.deliveryAttention).toBeNull();
  const stallFor = async (hours: number) => {
    await sandbox.control('POST', `/orders/${so.supplierOrderId}/parcel`, { stalled: true });
    await sandbox.control('POST', '/clock', { advanceHours: hours });
  };
  const attention = (reason: string | null) =>
    until(`attention ${reason}`, async () => {
      const now = await getSo(shop, so._id);
      return (now.deliveryAttention?.reason ?? null) === reason ? now : undefined;
    });
  await stallFor(80);
  const watched = await attention('noMovement');
  expect(watched).toMatchObject({
    status: 'shipped',
    reviewReason: null,
    deliveryAttention: { reason: 'noMovement', message: expect.stringContaining('72 hours') },
  });
  // The list's filter, and the store order's (its part needs a person).
  const listed = await svc.call('GET', `${api(shop)}/orders?needsAttention=true`, { key: shop.owner.key });
  expect(listed.body.result.items.map((s: any) => s._id)).toEqual([so._id]);
  expect((await svc.call('GET', `${api(shop)}/orders?needsAttention=false`, { key: shop.owner.key })).body.result.items.map((s: any) => s._id)).not.toContain(
    so._id,
  );
  const storeOrder = (await svc.call('GET', `/api/store-orders/${shop.storeId}/${order.id}`, { key: shop.owner.key })).body.result;
  expect(storeOrder).toMatchObject({ status: 'shipped', needsAttention: true });

  // The carrier scans it again: cleared by the movement itself.
  await sandbox.control('POST', `/orders/${so.supplierOrderId}/parcel`, { stalled: false });
  await sandbox.control('POST', '/clock', { advanceHours: 20 });
  const moved = await attention(null);
  expect(moved.tracking.events.at(-1).description).toBe('Departed the origin sorting centre');
  expect((await svc.call('GET', `/api/store-orders/${shop.storeId}/${order.id}`, { key: shop.owner.key })).body.result.needsAttention).toBe(false);

  // Stalled again: raised again; a person acknowledges, naming another reason (409, nothing changes), then the one seen.
  await stallFor(80);
  await attention('noMovement');
  const wrong = await svc.call('POST', `${api(shop)}/orders/${so._id}/delivery-attention/acknowledge`, { key: shop.owner.key, body: { reason: 'overdue' } });
  expect([wrong.status, wrong.body.error.code]).toEqual([409, 'attentionChanged']);
  const ack = await svc.call('POST', `${api(shop)}/orders/${so._id}/delivery-attention/acknowledge`, { key: shop.owner.key, body: { reason: 'noMovement' } });
  expect(ack.status).toBe(200);
  expect(ack.body.result).toMatchObject({ status: 'shipped', deliveryAttention: null });
  expect(ack.body.result.events.at(-1)).toMatchObject({ type: 'deliveryAttentionCleared', details: { reason: 'noMovement', acknowledged: true } });
  // The sweep runs every second: acknowledged, the same stall is not raised again before its hours pass anew.
  await new Promise((r) => setTimeout(r, 2500));
  expect((await getSo(shop, so._id)).deliveryAttention).toBeNull();

  // The supplier reports an exception (customs): raised at once, in the carrier's words.
  await sandbox.control('POST', `/orders/${so.supplierOrderId}/parcel`, { exception: 'customsHold' });
  const held = await attention('customsHold');
  expect(held.deliveryAttention.message).toBe('The carrier reports: Held at customs: duties unpaid.');
  expect(held.tracking.exception).toBe('customsHold');
  expect((await outbox(so._id)).filter((t) => t.startsWith('supplierOrder.deliveryAttention'))).toEqual([
    'supplierOrder.deliveryAttention',
    'supplierOrder.deliveryAttentionCleared',
    'supplierOrder.deliveryAttention',
    'supplierOrder.deliveryAttentionCleared',
    'supplierOrder.deliveryAttention',
  ]);
});

test('a claim for a reship: sent once under its id, decided by the sandbox, one reship order made, sent once and shipped', async () => {
  const shop = await openShop(svc, sandbox, { page: 4 });
  const { order, so } = await shippedPart(shop);
  const itemId = order.items[0].id;
  const opened = await svc.call('POST', `${api(shop)}/orders/${so._id}/claims`, {
    key: shop.owner.key,
    body: {
      reason: 'notReceived',
      expectation: 'reship',
      items: [{ itemId, quantity: 1 }],
      message: 'Lost in transit',
      evidence: ['https://example.test/photo.jpg'],
    },
  });
  expect(opened.status).toBe(201);
  expect(opened.body.result).toMatchObject({
    via: 'api',
    status: 'sending',
    reason: 'notReceived',
    expectation: 'reship',
    items: [{ itemId, quantity: 1 }],
    evidencePack: null,
  });
  const claimId = opened.body.result._id;
  // The same items again: 409, by the database (claimExists), or by the supplier once it holds the first (claimNotAllowed).
  const again = await svc.call('POST', `${api(shop)}/orders/${so._id}/claims`, {
    key: shop.owner.key,
    body: { reason: 'damaged', expectation: 'refund', items: [{ itemId, quantity: 1 }] },
  });
  expect(again.status).toBe(409);
  expect(['claimExists', 'claimNotAllowed']).toContain(again.body.error.code);
  const open = await until('the claim open at the sandbox', async () => {
    const got = await svc.call('GET', `${api(shop)}/orders/${so._id}/claims/${claimId}`, { key: shop.owner.key });
    if (!got.body.result)
      throw new Error(
        got.text + JSON.stringify(await svc.waitForLog((l) => l.requestId === got.body.error.requestId && Number(l.level) >= 50, 3000).catch(() => null)),
      );
    const c = got.body.result;
    return c.status === 'open' ? c : undefined;
  });
  const atSandbox = (await received(sandbox)).all.claims.filter((c: any) => c.claimKey === claimId);
  expect(atSandbox).toEqual([expect.objectContaining({ id: open.supplierClaimId, status: 'open', opens: 1 })]);

  await sandbox.control('POST', `/claims/${open.supplierClaimId}/decide`, { outcome: 'reship' });
  const closed = await until('the reship made', async () => {
    const c = (await svc.call('GET', `${api(shop)}/orders/${so._id}/claims/${claimId}`, { key: shop.owner.key })).body.result;
    return c.status === 'closed' ? c : undefined;
  });
  expect(closed.outcome).toMatchObject({ kind: 'reshipped', supplierOrderId: expect.any(String), by: { kind: 'supplier' } });
  const reship = await until('the reship sent', async () => {
    const r = await getSo(shop, closed.outcome.supplierOrderId);
    return r.status === 'confirmed' ? r : undefined;
  });
  expect(reship).toMatchObject({
    orderId: order.id,
    fulfilmentGroupKey: `supplier:${shop.connId}:${claimId}`,
    reshipOf: { claimId, supplierOrderId: so._id },
    costs: { totalMinor: 0 },
  });
  await sandbox.control('POST', `/orders/${reship.supplierOrderId}/ship`, {});
  await until('the reship shipped', async () => (await getSo(shop, reship._id)).status === 'shipped');
  const r = await received(sandbox);
  expect(r.all.reshipsByClaim).toEqual({ [open.supplierClaimId]: 1 });
  expect(r.count(reship.supplierOrderNumber)).toBe(1);
  // The history and the events of the claimed order: opened, sent, closed.
  const history = (await getSo(shop, so._id)).events.filter((e: any) => e.type.startsWith('claim')).map((e: any) => e.type);
  expect(history).toEqual(['claimOpened', 'claimUpdated', 'claimClosed']);
  expect((await outbox(so._id)).filter((t) => t.includes('claim'))).toEqual([
    'supplierOrder.claimOpened',
    'supplierOrder.claimUpdated',
    'supplierOrder.claimClosed',
  ]);
});

test("a claim for a refund: the supplier's amount and currency, and the store's at the recorded rate; limits are asked first", async () => {
  const shop = await openShop(svc, sandbox, { page: 5 });
  const { order, so } = await shippedPart(shop);
  const itemId = order.items[0].id;
  const tooMany = await svc.call('POST', `${api(shop)}/orders/${so._id}/claims`, {
    key: shop.owner.key,
    body: { reason: 'damaged', expectation: 'refund', items: [{ itemId, quantity: 5 }] },
  });
  expect([tooMany.status, tooMany.body.error.code]).toEqual([422, 'claimInvalid']);
  const opened = await svc.call('POST', `${api(shop)}/orders/${so._id}/claims`, {
    key: shop.owner.key,
    body: { reason: 'damaged', expectation: 'refund', items: [{ itemId, quantity: 1 }] },
  });
  expect(opened.status).toBe(201);
  const claimId = opened.body.result._id;
  const open = await until('sent', async () => {
    const c = (await svc.call('GET', `${api(shop)}/orders/${so._id}/claims/${claimId}`, { key: shop.owner.key })).body.result;
    return c.status === 'open' ? c : undefined;
  });
  await sandbox.control('POST', `/claims/${open.supplierClaimId}/decide`, { outcome: 'refund', amountMinor: 1234 });
  const closed = await until('refunded', async () => {
    const c = (await svc.call('GET', `${api(shop)}/orders/${so._id}/claims/${claimId}`, { key: shop.owner.key })).body.result;
    return c.status === 'closed' ? c : undefined;
  });
  expect(closed.outcome).toMatchObject({
    kind: 'refunded',
    amount: { amountMinor: 1234, currency: 'USD' },
    storeAmount: { amountMinor: 1234, currency: 'USD', rate: '1', rateSource: 'identity' },
  });
});

/** A store with a CJ connection and one imported CJ product. */
async function openCjShop(): Promise<Shop> {
  const owner = await newDeveloper(svc, { plan: 'pro', credits: 5000 });
  const storeId = await createStore(svc, owner.key);
  const acc = await cjControl(fake, 'POST', '/accounts', { balance: '10000.00', qps: 6 });
  seen.secrets.add(acc.apiKey);
  seen.secrets.add(acc.openId);
  const conn = await svc.call('POST', `/api/store-suppliers/${storeId}`, {
    key: owner.key,
    body: { supplierKey: 'cj', mode: 'live', credentials: { apiKey: acc.apiKey }, settings: { requestsPerSecond: 6 } },
  });
  const product = (await cjControl(fake, 'GET', '/catalogue')).find((p: any) => p.status === 3);
  const res = await svc.call('POST', `/api/store-suppliers/${storeId}/${conn.body.result.id}/import`, {
    key: owner.key,
    body: { products: [{ supplierProductId: product.pid, variantIds: [product.variants[0].vid] }] },
  });
  const p = res.body.result.products[0];
  return {
    owner,
    storeId,
    connId: conn.body.result.id,
    account: { accountId: acc.openId, liveKey: acc.apiKey, testKey: '' },
    products: [{ productId: p.id, variantId: p.variants[0].id, supplierVariantId: product.variants[0].vid, supplierProductId: product.pid, costMinor: 0 }],
  };
}

/** A CJ part sent, paid and shipped, the shipment read back (CJ's ORDER and LOGISTIC notifications). */
async function cjShipped(shop: Shop) {
  const order = await placeOrder(svc, shop);
  const sent = await submit(svc, shop, order.id, { payNow: true });
  expect(sent.body.result.status).toBe('confirmed');
  await cjControl(fake, 'POST', `/orders/${sent.body.result.supplierOrderId}/ship`, {});
  const so = await until('the CJ shipment read back', async () => {
    const now = await getSo(shop, sent.body.result._id);
    return now.status === 'shipped' && now.tracking?.events.length ? now : undefined;
  });
  return { order, so };
}

test("CJ: trackInfo read back after its notifications; a stalled parcel raises noMovement on the fake's clock", async () => {
  const shop = await openCjShop();
  const { so } = await cjShipped(shop);
  expect(so.tracking.events).toEqual([expect.objectContaining({ description: 'Departed the warehouse' })]);
  await cjControl(fake, 'POST', `/orders/${so.supplierOrderId}/parcel`, { stalled: true });
  await cjControl(fake, 'POST', '/clock', { advanceHours: 80 });
  const watched = await until('raised', async () => {
    const now = await getSo(shop, so._id);
    return now.deliveryAttention ? now : undefined;
  });
  expect(watched).toMatchObject({ status: 'shipped', deliveryAttention: { reason: 'noMovement' } });
});

test("CJ: a dispute sent once under the claim's id (businessDisputeId), its limits asked first; CJ's reissue is recorded as the reship, never created again", async () => {
  const shop = await openCjShop();
  const { order, so } = await cjShipped(shop);
  const itemId = order.items[0].id;
  const opened = await svc.call('POST', `${api(shop)}/orders/${so._id}/claims`, {
    key: shop.owner.key,
    body: { reason: 'damaged', expectation: 'reship', items: [{ itemId, quantity: 1 }], message: 'Cracked on arrival' },
  });
  expect(opened.status).toBe(201);
  const claimId = opened.body.result._id;
  const open = await until('the dispute open at CJ', async () => {
    const c = (await svc.call('GET', `${api(shop)}/orders/${so._id}/claims/${claimId}`, { key: shop.owner.key })).body.result;
    return c.status === 'open' ? c : undefined;
  });
  // CJ says canChoose false while its dispute is unfinished: a second claim is refused before anything is recorded.
  const again = await svc.call('POST', `${api(shop)}/orders/${so._id}/claims`, {
    key: shop.owner.key,
    body: { reason: 'quality', expectation: 'refund', items: [{ itemId, quantity: 1 }] },
  });
  expect(again.status).toBe(409);
  await cjControl(fake, 'POST', `/disputes/${open.supplierClaimId}/decide`, { finallyDeal: 2 });
  const closed = await until('the reissue recorded', async () => {
    const c = (await svc.call('GET', `${api(shop)}/orders/${so._id}/claims/${claimId}`, { key: shop.owner.key })).body.result;
    return c.status === 'closed' ? c : undefined;
  });
  const atCj = await cjControl(fake, 'GET', '/received');
  expect(atCj.disputeCreatesByKey).toEqual({ [claimId]: 1 });
  const resend = atCj.resends[open.supplierClaimId];
  expect(closed.outcome).toMatchObject({ kind: 'reshipped', supplierSideOrderId: resend, supplierOrderId: expect.any(String) });
  const reship = await getSo(shop, closed.outcome.supplierOrderId);
  expect(reship).toMatchObject({ supplierOrderId: resend, status: 'confirmed', reshipOf: { claimId } });
  // Adopted as CJ made it: nothing was created at CJ under the reship's own number.
  expect(atCj.orders.filter((o: any) => o.orderNumber === reship.supplierOrderNumber)).toEqual([]);
});

test("Printful (no claims API): a claim a person sends, with the supplier's 30 days and an evidence pack; two at once on the same item: one, by the database; the person records the refund", async () => {
  const shop = await openPrintfulShop(svc, printful);
  const order = await placeOrder(svc, shop, { destination: PRINTFUL_US });
  const sent = await submit(svc, shop, order.id, { payNow: true });
  expect(sent.body.result.status).toBe('confirmed');
  await printfulControl(printful, 'POST', `/orders/${sent.body.result.supplierOrderId}/ship`, { carrier: 'USPS', trackingNumber: 'PF-TRACK-1' });
  const so = await until('the Printful shipment read back', async () => {
    const now = await getSo(shop, sent.body.result._id);
    return now.status === 'shipped' && now.tracking?.events.length ? now : undefined;
  });
  expect(so.tracking.events).toEqual([expect.objectContaining({ description: 'Shipped' })]);
  const itemId = order.items[0].id;
  const body = { reason: 'damaged', expectation: 'refund', items: [{ itemId, quantity: 1 }], evidence: ['https://example.test/broken.jpg'] };
  const both = await Promise.all([0, 1].map(() => svc.call('POST', `${api(shop)}/orders/${so._id}/claims`, { key: shop.owner.key, body })));
  expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
  expect(both.find((r) => r.status === 409)!.body.error.code).toBe('claimExists');
  const claim = both.find((r) => r.status === 201)!.body.result;
  const shippedAt = Date.parse(so.tracking.events[0].at);
  expect(claim).toMatchObject({
    via: 'person',
    status: 'withPerson',
    evidencePack: {
      where: expect.stringContaining('Report a problem'),
      tracking: { trackingNumber: 'PF-TRACK-1' },
      text: expect.stringContaining('It arrived damaged: 1 x'),
    },
  });
  expect(Math.abs(Date.parse(claim.deadline) - (shippedAt + 30 * 86_400_000))).toBeLessThan(5000);
  const recorded = await svc.call('POST', `${api(shop)}/orders/${so._id}/claims/${claim._id}/outcome`, {
    key: shop.owner.key,
    body: { outcome: 'refunded', amount: { amountMinor: 950, currency: 'USD' } },
  });
  expect(recorded.status).toBe(200);
  expect(recorded.body.result).toMatchObject({
    status: 'closed',
    outcome: { kind: 'refunded', amount: { amountMinor: 950, currency: 'USD' }, storeAmount: { amountMinor: 950, currency: 'USD' }, by: { kind: 'key' } },
  });
  const twice = await svc.call('POST', `${api(shop)}/orders/${so._id}/claims/${claim._id}/outcome`, {
    key: shop.owner.key,
    body: { outcome: 'rejected', message: 'no' },
  });
  expect([twice.status, twice.body.error.code]).toEqual([409, 'invalidState']);
});

test("a claim acts on its creator's authority as it is when sent: a staff member whose claims.manage was taken meanwhile sends nothing (stopped)", async () => {
  const shop = await openShop(svc, sandbox, { page: 6 });
  const { order, so } = await shippedPart(shop);
  const staff = await newDeveloper(svc);
  const staffKey = (await createKey(svc, staff.session, 'claims', 'account')).key;
  const grant = (permissions: string[]) =>
    svc.call('PUT', `/api/stores/${shop.storeId}/staff`, { key: shop.owner.key, body: { email: staff.email, permissions } });
  expect((await grant(['suppliers.view', 'claims.manage'])).status).toBe(200);
  // The sandbox answers this account slowly: the claim's look-up by its key is under way when the grant is taken back.
  await sandbox.control('POST', '/faults', { accountLatencyMs: { [shop.account.accountId]: 2000 } });
  try {
    const opened = await svc.call('POST', `${api(shop)}/orders/${so._id}/claims`, {
      key: staffKey,
      body: { reason: 'notReceived', expectation: 'reship', items: [{ itemId: order.items[0].id, quantity: 1 }] },
    });
    expect(opened.status).toBe(201);
    expect((await grant(['suppliers.view'])).status).toBe(200);
    const stopped = await until(
      'the claim stopped',
      async () => {
        const c = (await svc.call('GET', `${api(shop)}/orders/${so._id}/claims/${opened.body.result._id}`, { key: shop.owner.key })).body.result;
        return c.status === 'closed' ? c : undefined;
      },
      30000,
    );
    expect(stopped.outcome).toMatchObject({ kind: 'stopped', message: 'Its creator may no longer manage claims in this store.' });
    expect((await received(sandbox)).all.claimOpensByKey[opened.body.result._id]).toBeUndefined();
  } finally {
    await sandbox.control('POST', '/faults', { accountLatencyMs: {} });
  }
  // Evidence the supplier could not open, or an address with a user in it: refused with the field named.
  const bad = await svc.call('POST', `${api(shop)}/orders/${so._id}/claims`, {
    key: shop.owner.key,
    body: { reason: 'damaged', expectation: 'refund', items: [{ itemId: order.items[0].id, quantity: 1 }], evidence: ['http://user@example.test/x.jpg'] },
  });
  expect([bad.status, bad.body.error.code]).toEqual([400, 'validationFailed']);
});

test('the JS client: claims open, list, get and cancel (withdrawn at the sandbox); a second on the same items and a stale acknowledgement are ApiErrors of 409', async () => {
  const shop = await openShop(svc, sandbox, { page: 7 });
  const { order, so } = await shippedPart(shop);
  const { store, sent } = clientFor(svc, shop.owner.key);
  const claims = store.suppliers.claims;
  const claim = await claims.open(shop.storeId, so._id, { reason: 'wrongItem', expectation: 'refund', items: [{ itemId: order.items[0].id, quantity: 1 }] });
  expect(sent.at(-1)).toMatchObject({ method: 'POST', status: 201 });
  expect((await claims.list(shop.storeId, so._id)).map((c) => c._id)).toEqual([claim._id]);
  const again = await rejectionOf<ApiError>(
    claims.open(shop.storeId, so._id, { reason: 'wrongItem', expectation: 'refund', items: [{ itemId: order.items[0].id, quantity: 1 }] }),
  );
  expect(again).toBeInstanceOf(ApiError);
  expect(again.status).toBe(409);
  await until('sent', async () => (await claims.get(shop.storeId, so._id, claim._id)).status === 'open');
  const asked = await claims.cancel(shop.storeId, so._id, claim._id);
  expect(asked.cancelRequested).toBe(true);
  const withdrawn = await until('withdrawn at the sandbox', async () => {
    const c = await claims.get(shop.storeId, so._id, claim._id);
    return c.status === 'closed' ? c : undefined;
  });
  expect(withdrawn.outcome).toMatchObject({ kind: 'cancelled' });
  expect((await received(sandbox)).all.claims.find((c: any) => c.claimKey === claim._id)).toMatchObject({ status: 'cancelled' });
  const stale = await rejectionOf<ApiError>(store.suppliers.orders.acknowledgeDeliveryAttention(shop.storeId, so._id, { reason: 'noMovement' }));
  expect([stale.status, stale.code]).toEqual([409, 'attentionChanged']);
});

leakScanTest();
