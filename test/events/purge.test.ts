/**
 * Housekeeping purges old events of every store in one statement (the allowed cross-store sweep `event-purge`,
 * docs/scaling.md): an event older than the retention with nothing left to deliver goes, its deliveries with it; one
 * whose delivery is still pending, and a recent one, stay.
 */
import { eventually, Service, startService } from '../support/harness';
import { FAST_EVENTS, ownStore, receiverPool, subscribe } from './support';

let svc: Service;
const receivers = receiverPool();

beforeAll(async () => {
  svc = await startService({ label: 'events-purge', privateTargets: true, env: { ...FAST_EVENTS, EVENT_RETENTION_DAYS: '7' } });
}, 120000);
afterAll(async () => {
  await receivers.downAll();
  await svc?.stop();
});

/** A test event for the subscription: its delivery's id and its event's seq. */
async function testEvent(store: Awaited<ReturnType<typeof ownStore>>, subscriptionId: string): Promise<{ delivery: string; seq: string }> {
  const sent = await svc.call('POST', `${store.base}/${subscriptionId}/test`, { key: store.dev.key });
  expect(sent.status).toBe(202);
  const { rows } = await svc.db.query('SELECT event_seq::text AS seq FROM event_deliveries WHERE id = $1', [sent.body.result.id]);
  return { delivery: sent.body.result.id, seq: rows[0].seq };
}

const statusOf = async (delivery: string) => (await svc.db.query('SELECT status, attempts FROM event_deliveries WHERE id = $1', [delivery])).rows[0];

test('housekeeping purges the old, finished events of every store, and keeps the pending and the recent ones', async () => {
  const live = await receivers.start();
  const failing = await receivers.start();
  failing.answer = () => 500;
  const [a, b] = [await ownStore(svc), await ownStore(svc)];
  const delivered = await testEvent(a, (await subscribe(svc, a.dev.key, a.storeId, live.url)).id);
  const pending = await testEvent(b, (await subscribe(svc, b.dev.key, b.storeId, failing.url)).id);
  const recent = await testEvent(b, (await subscribe(svc, b.dev.key, b.storeId, live.url)).id);
  await eventually(
    async () => ((await statusOf(delivered.delivery))?.status === 'delivered' && (await statusOf(recent.delivery))?.status === 'delivered') || undefined,
    30000,
    'delivered',
  );
  await eventually(async () => (await statusOf(pending.delivery))?.attempts > 0 || undefined, 30000, 'attempted');
  await svc.db.query(`UPDATE event_outbox SET created_at = now() - interval '8 days' WHERE seq = ANY($1::bigint[])`, [[delivered.seq, pending.seq]]);

  await svc.db.query(`INSERT INTO pgboss.job (name, data, policy) SELECT name, '{}'::jsonb, policy FROM pgboss.queue WHERE name = 'housekeeping'`);
  const left = async () =>
    (await svc.db.query('SELECT seq::text FROM event_outbox WHERE seq = ANY($1::bigint[]) ORDER BY seq', [[delivered.seq, pending.seq, recent.seq]])).rows.map(
      (r: { seq: string }) => r.seq,
    );
  await eventually(async () => (await left()).length === 2 || undefined, 30000, 'the old delivered event purged');
  expect(await left()).toEqual([pending.seq, recent.seq].sort((x, y) => Number(x) - Number(y)));
  expect(await statusOf(delivered.delivery)).toBeUndefined();
  expect((await statusOf(pending.delivery)).status).toBe('pending');
}, 120000);
