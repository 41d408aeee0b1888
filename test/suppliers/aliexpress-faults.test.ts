/**
 * The service with the AliExpress adapter under AliExpress's failures (test/fakes/aliexpress injects them): every create
 * error code to its review reason, ApiCallLimit as a throttle, a time-out after create made once, cancel refused,
 * and the sign-in renewed on schedule or, refused, lapsed until the merchant signs in again.
 */
import { Secrets } from '../../server/platform/crypto';
import { eventually, leakScanTest } from '../support/harness';
import { placeOrder, soAction, submit } from '../support/orders';
import { AeWorld, startAeWorld } from './aliexpress-support';

/* eslint-disable @typescript-eslint/no-explicit-any */

let w: AeWorld;
beforeAll(async () => {
  w = await startAeWorld('aliexpress-faults');
});
afterAll(async () => w?.close());
afterEach(async () => w.control('DELETE', '/faults'));

const failCreate = (code: string, message = `refused: ${code}`) =>
  w.control('POST', '/faults', { failNext: [{ method: 'aliexpress.ds.order.create', code, message, count: 1, inResult: true }] });
const types = (so: any) => so.events.map((e: any) => e.type);

describe('every create error code of the note reaches the review reason it names', () => {
  // Codes of 32 characters or more are blanked as tokens by the review message's cleaning: the words say what happened.
  test.each([
    ['B_DROPSHIPPER_DELIVERY_ADDRESS_VALIDATE_FAIL', 'destinationUnsupported', /refused the delivery address/],
    ['B_DROPSHIPPER_DELIVERY_ADDRESS_CPF_CN_INVALID', 'destinationUnsupported', /tax number \(CPF\)/],
    ['B_DROPSHIPPER_DELIVERY_ADDRESS_CPF_NOT_MATCH', 'destinationUnsupported', /tax number \(CPF\)/],
    ['DELIVERY_METHOD_NOT_EXIST', 'destinationUnsupported', /DELIVERY_METHOD_NOT_EXIST/],
    ['INVENTORY_HOLD_ERROR', 'variantUnavailable', /INVENTORY_HOLD_ERROR/],
    ['PRICE_PAY_CURRENCY_ERROR', 'supplierRefused', /PRICE_PAY_CURRENCY_ERROR/],
    ['ERROR_WHEN_BUILD_FOR_PLACE_ORDER', 'supplierRefused', /could not build the order/],
    ['A001', 'supplierRefused', /\(A001\)/],
    ['A006', 'supplierRefused', /\(A006\)/],
  ])("%s -> %s, with AliExpress's words cleaned; nothing ordered", async (code, reason, said) => {
    const shop = await w.openShop();
    await failCreate(code, `Please check the address, or call +86 571 8502 2088 / write to ds-help@aliexpress.test`);
    const res = await submit(w.svc, shop, (await placeOrder(w.svc, shop)).id);
    const so = await w.pausedAs(shop, res.body.result._id, reason);
    expect(so.reviewMessage).toMatch(said);
    expect(so.reviewMessage).toContain('Please check the address');
    expect(so.reviewMessage).not.toMatch(/8502|ds-help@/);
    expect(await w.ordersAt(so.supplierOrderNumber)).toHaveLength(0);
  });

  test.each([['BLACKLIST_BUYER_IN_LIST'], ['USER_ACCOUNT_DISABLED']])('%s -> connectionMissing: the connection is switched off and says why', async (code) => {
    const shop = await w.openShop();
    await w.control('POST', `/buyers/${shop.buyer.userId}`, code === 'USER_ACCOUNT_DISABLED' ? { disabled: true } : { blacklisted: true });
    const res = await submit(w.svc, shop, (await placeOrder(w.svc, shop)).id);
    const so = await w.pausedAs(shop, res.body.result._id, 'connectionMissing');
    expect(so.retryable).toBe(false);
    // Paused at the supplier's first answer, never failed and retried first: nothing on that account can be ordered.
    expect(types(so)).not.toContain('failed');
    const conn = (await w.svc.call('GET', `/api/store-suppliers/${shop.storeId}`, { key: shop.owner.key })).body.result[0];
    expect(conn).toMatchObject({ enabled: false, health: { status: 'unhealthy', message: expect.stringContaining(code) } });
    expect(await w.ordersAt(so.supplierOrderNumber)).toHaveLength(0);
  });

  test('REPEATED_ORDER_ERROR is read back, never created again; a time-out after create is found and made once', async () => {
    const shop = await w.openShop();
    await w.control('POST', '/faults', { timeoutAfterCreateNext: 1 });
    const res = await submit(w.svc, shop, (await placeOrder(w.svc, shop)).id);
    expect(['queued', 'failed']).toContain(res.body.result.status);
    const so = await w.settles(shop, res.body.result._id, 'submitted', 40000);
    const orders = await w.ordersAt(so.supplierOrderNumber);
    expect(orders.map((o: any) => o.id)).toEqual([so.supplierOrderId]);
    const tries = (await w.control('GET', '/received')).creates.filter((c: any) => c.outOrderId === so.supplierOrderNumber);
    expect(tries.map((c: any) => [c.accepted, c.errorCode])).toEqual([
      [true, null],
      [false, 'REPEATED_ORDER_ERROR'],
    ]);
    expect(types(so)).toEqual(expect.arrayContaining(['failed', 'automaticRetry', 'createdAtSupplier']));
    expect(so.events.find((e: any) => e.type === 'failed').details.error).toBe('timeout');
  }, 60000);

  test("cancel is refused with the catalogue's reason: AliExpress has no cancel call", async () => {
    const shop = await w.openShop();
    const res = await submit(w.svc, shop, (await placeOrder(w.svc, shop)).id);
    expect(res.body.result.status).toBe('submitted');
    const cancelled = await soAction(w.svc, shop, res.body.result._id, 'cancel');
    const so = cancelled.body.result.status === 'needsReview' ? cancelled.body.result : await w.pausedAs(shop, res.body.result._id, 'supplierRefused');
    expect(so).toMatchObject({ status: 'needsReview', reviewReason: 'supplierRefused' });
    expect(so.reviewMessage).toMatch(/no cancel call: cancel this order on aliexpress\.com/);
    expect((await w.ordersAt(so.supplierOrderNumber))[0].orderStatus).toBe('PLACE_ORDER_SUCCESS');
  }, 40000);
});

describe('ApiCallLimit is a throttle', () => {
  test('a short ban is waited out; a lasting one answers 503 and never opens the circuit', async () => {
    const shop = await w.openShop();
    const product = () =>
      w.svc.call('GET', `/api/store-suppliers/${shop.storeId}/${shop.connId}/products/${shop.products[0].supplierProductId}`, { key: shop.owner.key });
    await w.control('POST', '/faults', { callLimitNext: 2 });
    expect((await product()).status).toBe(200);
    await w.control('POST', '/faults', { callLimitNext: 60 });
    for (let i = 0; i < 6; i++) expect([i, (await product()).body.error?.code]).toEqual([i, 'supplierUnavailable']);
    await w.control('DELETE', '/faults');
    const [row] = (await w.svc.db.query('SELECT consecutive_failures, circuit_open_until FROM supplier_connections WHERE id = $1', [shop.connId])).rows;
    expect(row).toEqual({ consecutive_failures: 0, circuit_open_until: null });
    expect((await w.control('GET', '/received')).refusals.ApiCallLimit).toBeGreaterThanOrEqual(2 + 18);
  }, 60000);
});

describe('the sign-in, renewed on schedule', () => {
  const secrets = new Secrets('test-secret-'.padEnd(48, 'x'));
  const stored = async (connId: string) =>
    JSON.parse(
      secrets.decrypt((await w.svc.db.query('SELECT credentials_sealed FROM supplier_connections WHERE id = $1', [connId])).rows[0].credentials_sealed),
    );

  test('renewed before it ends (a quarter of its life before), kept sealed; calls go on with the new token', async () => {
    const shop = await w.openShop({ buyer: { accessTtlMs: 8000 } });
    const first = await stored(shop.connId);
    const renewed = await eventually(
      async () => {
        const now = await stored(shop.connId);
        return now.accessToken !== first.accessToken ? now : undefined;
      },
      20000,
      'the sign-in to be renewed',
    );
    const buyer = await w.control('GET', `/buyers/${shop.buyer.userId}`);
    expect(buyer.refreshes).toBeGreaterThanOrEqual(1);
    expect(buyer.issued).toContain(renewed.accessToken);
    expect(Date.parse(renewed.accessTokenExpiresAt)).toBeGreaterThan(Date.parse(first.accessTokenExpiresAt));
    // The first token has ended by now; the product read works with the renewed one.
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(first.accessTokenExpiresAt) - Date.now() + 200)));
    expect(
      (await w.svc.call('GET', `/api/store-suppliers/${shop.storeId}/${shop.connId}/products/${shop.products[0].supplierProductId}`, { key: shop.owner.key }))
        .status,
    ).toBe(200);
  }, 40000);

  test('a renewal AliExpress refuses: unhealthy, orders pause as connectionUnhealthy, reads say sign in again; signing in again restores it', async () => {
    const shop = await w.openShop({ buyer: { accessTtlMs: 8000 } });
    await w.control('POST', `/buyers/${shop.buyer.userId}/revoke`, { refresh: true });
    const conn = await eventually(
      async () => {
        const c = (await w.svc.call('GET', `/api/store-suppliers/${shop.storeId}`, { key: shop.owner.key })).body.result[0];
        return c.health?.status === 'unhealthy' ? c : undefined;
      },
      20000,
      'the renewal to fail',
    );
    expect(conn.health.message).toMatch(/could not be renewed.*Sign in to AliExpress Dropshipping again/);
    const res = await submit(w.svc, shop, (await placeOrder(w.svc, shop)).id);
    const so = await w.pausedAs(shop, res.body.result._id, 'connectionUnhealthy');
    expect(so.retryable).toBe(true);
    // The paused order tells the merchant what to do, in the connection's own words.
    expect(so.reviewMessage).toMatch(/Sign in to AliExpress Dropshipping again/);
    const read = await w.svc.call('GET', `/api/store-suppliers/${shop.storeId}/${shop.connId}/products/${shop.products[0].supplierProductId}`, {
      key: shop.owner.key,
    });
    expect([read.status, read.body.error.code]).toEqual([409, 'signInExpired']);
    expect(read.body.error.message).toMatch(/Sign in to AliExpress Dropshipping again/);
    const tested = await w.svc.call('POST', `/api/store-suppliers/${shop.storeId}/${shop.connId}/test`, { key: shop.owner.key });
    expect(tested.body.result.health.status).toBe('unhealthy');

    const again = await w.signIn(shop.owner, shop.storeId, shop.buyer.userId);
    expect([again.status, again.body.result.id, again.body.result.health.status]).toEqual([201, shop.connId, 'healthy']);
    const retried = await soAction(w.svc, shop, so._id, 'retry');
    expect(retried.status).toBe(200);
    await w.settles(shop, so._id, 'submitted');
    expect(await w.ordersAt(so.supplierOrderNumber)).toHaveLength(1);
  }, 60000);
});

leakScanTest();
