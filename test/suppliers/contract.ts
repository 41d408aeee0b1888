/**
 * The supplier contract, as one suite every adapter passes (sandbox, CJ against its local server, AliExpress against
 * its local server): what the rest of the service relies on, whatever the supplier. Each `contract-*.test.ts` gives a
 * fixture and calls `supplierContract`; what the supplier holds is read from its own control API, never from the adapter.
 */
import type { Destination, SupplierAdapter, SupplierCallContext, SupplierOrderSnapshot } from '../../server/suppliers/adapter';
import { sendsNotifications, supportsSignIn } from '../../server/suppliers/adapter';
import { SupplierError } from '../../server/suppliers/errors';
import { eventually } from '../support/harness';

export interface ContractFixture {
  adapter: SupplierAdapter;
  /** A working connection on a fresh supplier account: its call context, with the service's order-number memory. */
  connect(): Promise<SupplierCallContext>;
  /** The same connection's context with credentials the supplier refuses. */
  refused(ctx: SupplierCallContext): SupplierCallContext;
  /** A variant on sale, in stock and shipped to `destination`, that no other test of the file uses. */
  freshVariant(): Promise<{ productId: string; variantId: string }>;
  destination: Destination;
  /** The next create is made at the supplier, but its answer comes only after the caller gave up. */
  timeOutNextCreate(): Promise<void>;
  /** How many orders the supplier holds under our number (its own view). */
  ordersAtSupplier(orderNumber: string): Promise<number>;
  close(): Promise<void>;
}

/** The service's order-number memory (kept in the database there), in memory for one test file. */
export function memory(): NonNullable<SupplierCallContext['orderNumbers']> {
  const kept = new Map<string, string>();
  return { remember: async (n, id) => void kept.set(n, id), recall: async (n) => kept.get(n) ?? null };
}

/** The SupplierError a call fails with; any other outcome fails the test. */
export async function failure(p: Promise<unknown>): Promise<SupplierError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof SupplierError) return err;
    throw err;
  }
  throw new Error('expected a SupplierError, but the call succeeded');
}

let seq = 0;
const orderNumber = () => `ss-contract-${Date.now().toString(36)}-${++seq}`;

/** What dispatch does for one attempt: look the number up, create only when absent, again after a passing error. */
async function dispatchOnce(
  adapter: SupplierAdapter,
  ctx: SupplierCallContext,
  number: string,
  variantId: string,
  destination: Destination,
): Promise<SupplierOrderSnapshot> {
  return eventually(
    async () => {
      try {
        return (
          (await adapter.findOrderByNumber(ctx, number)) ??
          (await adapter.createOrder(ctx, { orderNumber: number, items: [{ variantId, quantity: 1 }], destination }))
        );
      } catch (err) {
        if (err instanceof SupplierError && (err.isOutage || err.kind === 'orderNumberExists')) return undefined;
        throw err;
      }
    },
    30000,
    `order ${number} to be placed once`,
  );
}

/** The order as the supplier shows it, once it shows it (AliExpress: some seconds after the create). */
const readable = (adapter: SupplierAdapter, ctx: SupplierCallContext, id: string) =>
  eventually(
    async () => {
      try {
        return await adapter.getOrder(ctx, id);
      } catch (err) {
        if (err instanceof SupplierError && err.isOutage) return undefined;
        throw err;
      }
    },
    30000,
    `order ${id} to be readable`,
  );

export function supplierContract(name: string, fixture: () => ContractFixture): void {
  describe(`${name}: the supplier contract`, () => {
    let f: ContractFixture;
    let ctx: SupplierCallContext;
    beforeAll(async () => {
      f = fixture();
      ctx = await f.connect();
    });
    afterAll(async () => f?.close());

    test('the catalogue entry agrees with the methods the adapter has', () => {
      const { entry, limits } = f.adapter;
      expect(entry.key).toMatch(/^[a-z0-9-]{1,40}$/);
      expect(entry.capabilities.authKind).toBe(supportsSignIn(f.adapter) ? 'signIn' : 'apiKey');
      expect(entry.capabilities.notifications).toBe(sendsNotifications(f.adapter));
      expect(['balance', 'atCreate', 'external']).toContain(entry.capabilities.payment);
      expect(limits.callsInFlight).toBeGreaterThanOrEqual(1);
      expect(entry.settingsSchema.type).toBe('object');
    });

    test('credentials: verified with a label (the same account each time), healthy; refused ones are credentialsRejected', async () => {
      const a = await f.adapter.verifyCredentials(ctx);
      const b = await f.adapter.verifyCredentials(ctx);
      expect(a.accountLabel).not.toBe('');
      expect(b.accountId).toBe(a.accountId);
      expect((await f.adapter.healthCheck(ctx)).ok).toBe(true);
      expect((await failure(f.adapter.verifyCredentials(f.refused(ctx)))).kind).toBe('credentialsRejected');
      expect((await f.adapter.healthCheck(f.refused(ctx))).ok).toBe(false);
    });

    test('products: pages by cursor, one product with priced variants, its page address resolves to it, unknown ids are notFound', async () => {
      const first = await f.adapter.searchProducts(ctx, { pageSize: 3 });
      expect(first.items.length).toBeGreaterThan(0);
      expect(first.items.length).toBeLessThanOrEqual(3);
      expect(first.nextCursor).not.toBeNull();
      const second = await f.adapter.searchProducts(ctx, { pageSize: 3, cursor: first.nextCursor! });
      expect(second.items.map((p) => p.id).filter((id) => first.items.some((p) => p.id === id))).toEqual([]);
      expect((await failure(f.adapter.searchProducts(ctx, { pageSize: 3, cursor: 'not-ours' }))).kind).toBe('refused');

      const { productId, variantId } = await f.freshVariant();
      const product = await f.adapter.getProduct(ctx, productId);
      expect(product.id).toBe(productId);
      const variant = product.variants.find((v) => v.id === variantId)!;
      expect(variant).toBeDefined();
      expect(Number.isSafeInteger(variant.cost.amountMinor) && variant.cost.amountMinor > 0).toBe(true);
      expect(variant.cost.currency).toMatch(/^[A-Z]{3}$/);
      expect(variant.stock).toBeGreaterThan(0);
      expect(product.shipsTo).toContain(f.destination.country);
      expect(f.adapter.resolveProductUrl(new URL(product.url))).toBe(productId);
      expect(f.adapter.resolveProductUrl(new URL('https://example.com/item/1005001.html'))).toBeNull();
      expect((await failure(f.adapter.getProduct(ctx, '4242424242424242'))).kind).toBe('notFound');
    });

    test('orders: an unknown number is absent; created under our number, then found by it and read by id', async () => {
      const { variantId } = await f.freshVariant();
      const number = orderNumber();
      expect(await f.adapter.findOrderByNumber(ctx, number)).toBeNull();
      const created = await f.adapter.createOrder(ctx, { orderNumber: number, items: [{ variantId, quantity: 1 }], destination: f.destination });
      expect(created).toMatchObject({ orderNumber: number, status: expect.stringMatching(/^(created|paid)$/) });
      expect(created.supplierOrderId).not.toBe('');
      expect((await f.adapter.findOrderByNumber(ctx, number))?.supplierOrderId).toBe(created.supplierOrderId);
      const read = await readable(f.adapter, ctx, created.supplierOrderId);
      expect(read.supplierOrderId).toBe(created.supplierOrderId);
      expect(['created', 'paid']).toContain(read.status);
      expect(await f.ordersAtSupplier(number)).toBe(1);
    });

    test('a create that times out after succeeding: the look-up and the retried create make exactly one order', async () => {
      const { variantId } = await f.freshVariant();
      const number = orderNumber();
      await f.timeOutNextCreate();
      const short = { ...ctx, timeoutMs: 1500 };
      expect((await failure(f.adapter.createOrder(short, { orderNumber: number, items: [{ variantId, quantity: 1 }], destination: f.destination }))).kind).toBe(
        'timeout',
      );
      const placed = await dispatchOnce(f.adapter, ctx, number, variantId, f.destination);
      expect(await f.ordersAtSupplier(number)).toBe(1);
      expect((await dispatchOnce(f.adapter, ctx, number, variantId, f.destination)).supplierOrderId).toBe(placed.supplierOrderId);
      expect(await f.ordersAtSupplier(number)).toBe(1);
    }, 60000);

    test('payment as the catalogue says: from the balance once, or only at create', async () => {
      const { variantId } = await f.freshVariant();
      const payment = f.adapter.entry.capabilities.payment;
      // Payment due at create: suppliers paid only then are paid by the create; the others ignore it.
      const created = await f.adapter.createOrder(ctx, {
        orderNumber: orderNumber(),
        items: [{ variantId, quantity: 1 }],
        destination: f.destination,
        paymentDue: true,
      });
      if (payment === 'balance') {
        expect((await f.adapter.payOrder(ctx, created.supplierOrderId)).paid).toBe(true);
      } else {
        expect((await readable(f.adapter, ctx, created.supplierOrderId)).paid).toBe(true);
      }
      expect((await failure(f.adapter.payOrder(ctx, created.supplierOrderId))).kind).toBe('alreadyPaid');
      if (payment === 'atCreate') {
        const { variantId: other } = await f.freshVariant();
        const unpaid = await f.adapter.createOrder(ctx, { orderNumber: orderNumber(), items: [{ variantId: other, quantity: 1 }], destination: f.destination });
        await readable(f.adapter, ctx, unpaid.supplierOrderId);
        expect((await failure(f.adapter.payOrder(ctx, unpaid.supplierOrderId))).kind).toBe('notSupported');
      }
    }, 60000);

    test('cancel as the catalogue says: withdrawn before payment, or refused with the reason', async () => {
      const { variantId } = await f.freshVariant();
      const created = await f.adapter.createOrder(ctx, { orderNumber: orderNumber(), items: [{ variantId, quantity: 1 }], destination: f.destination });
      await readable(f.adapter, ctx, created.supplierOrderId);
      if (f.adapter.entry.capabilities.cancel) {
        expect((await f.adapter.cancelOrder(ctx, created.supplierOrderId)).status).toBe('cancelled');
      } else {
        const refused = await failure(f.adapter.cancelOrder(ctx, created.supplierOrderId));
        expect(['notSupported', 'refused']).toContain(refused.kind);
        expect(refused.message).toMatch(/cancel/i);
      }
    }, 60000);

    test('no failure message repeats a credential; a notification it cannot verify is null', async () => {
      const err = await failure(f.adapter.getProduct(f.refused(ctx), '4242424242424242'));
      for (const value of Object.values(ctx.credentials)) if (value.length >= 6) expect(err.message).not.toContain(value);
      expect(f.adapter.verifyNotification(ctx, { rawBody: '{"not":"signed"}', headers: {}, now: new Date() })).toBeNull();
    });
  });
}
