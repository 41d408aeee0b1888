/** The client's event subscriptions group and its verify helper, against the real service and a real receiver. */
import { createStore, eventually, leakScanTest, newDeveloper, seen, Service, startService } from '../support/harness';
import { Receiver } from '../support/receiver';
import { FAST_EVENTS } from '../events/support';
import { clientFor, NotFoundError, webhooks, WebhookVerificationError } from './support';

let svc: Service;

beforeAll(async () => {
  svc = await startService({ label: 'client_events', privateTargets: true, env: FAST_EVENTS });
});
afterAll(async () => {
  await svc.stop();
});

test('create, test, read the delivery log, redeliver, rotate and delete through the client; each event verifies', async () => {
  const owner = await newDeveloper(svc);
  const storeId = await createStore(svc, owner.key);
  const { store } = clientFor(svc, owner.key);
  const receiver = await Receiver.start();
  try {
    const sub = await store.suppliers.events.create(storeId, {
      url: receiver.url,
      eventTypes: ['supplierOrder.paused', 'supplierOrder.shipped'],
      description: 'ops',
    });
    seen.secrets.add(sub.secret!);
    expect(sub).toMatchObject({
      storeId,
      url: receiver.url,
      enabled: true,
      disabledReason: null,
      eventTypes: ['supplierOrder.paused', 'supplierOrder.shipped'],
    });
    expect(sub.secret).toMatch(/^whsec_/);
    expect((await store.suppliers.events.list(storeId)).items.map((s) => s.id)).toEqual([sub.id]);
    expect(await store.suppliers.events.get(storeId, sub.id)).not.toHaveProperty('secret');

    const delivery = await store.suppliers.events.test(storeId, sub.id);
    await receiver.until((r) => r.length >= 1, 20000, 'the test event');
    const [got] = receiver.received;
    const event = await webhooks.verify(got.body, got.headers, sub.secret!);
    expect(event).toMatchObject({ id: delivery.eventId, type: 'subscription.test', storeId });
    // A changed byte or another secret: refused, with the reason.
    await expect(webhooks.verify(got.body.replace('"storeId"', '"storeid"'), got.headers, sub.secret!)).rejects.toBeInstanceOf(WebhookVerificationError);
    const other = await store.suppliers.events.rotateSecret(storeId, sub.id, { keepOldSeconds: 0 });
    seen.secrets.add(other.secret!);
    await expect(webhooks.verify(got.body, got.headers, other.secret!)).rejects.toMatchObject({ reason: 'invalidSignature' });

    // The receiver's answer is recorded just after it reaches the receiver: wait for the log to say so.
    const page = await eventually(
      async () => {
        const p = await store.suppliers.events.deliveries(storeId, sub.id, { status: 'delivered' });
        return p.items.length ? p : undefined;
      },
      20000,
      'the delivery logged as delivered',
    );
    expect(page.items[0]).toMatchObject({ id: delivery.id, status: 'delivered', attempts: 1, responseStatus: 200 });
    const again = await store.suppliers.events.redeliver(storeId, sub.id, delivery.id);
    expect(again.status).toBe('pending');
    await receiver.until((r) => r.length >= 2, 20000, 'the redelivery');
    // Signed now with the rotated secret alone, same webhook-id.
    await expect(webhooks.verify(receiver.received[1].body, receiver.received[1].headers, other.secret!)).resolves.toMatchObject({ id: event.id });

    const off = await store.suppliers.events.update(storeId, sub.id, { enabled: false });
    expect(off.disabledReason).toMatchObject({ code: 'switchedOff' });
    await store.suppliers.events.delete(storeId, sub.id);
    await expect(store.suppliers.events.get(storeId, sub.id)).rejects.toBeInstanceOf(NotFoundError);
  } finally {
    await receiver.down();
  }
});

leakScanTest();
