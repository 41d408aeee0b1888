/**
 * Where a subscription may send. Private targets are the operator's explicit choice (off unless
 * EVENT_TARGETS_ALLOW_PRIVATE is set); the guard refuses private addresses in every IPv6 form that embeds an IPv4 one;
 * and the delivery log tells the merchant "refused", "timed out" or "status N", never a detail of the network.
 */
import { Developer, eventually, freePort, leakScanTest, seen, Service, startService } from '../support/harness';
import { FAST_EVENTS, ownStore, receiverPool, subscribe } from './support';

let open: Service; // private targets allowed, as the tests' receivers need
let guarded: Service; // the default: private targets refused
const receivers = receiverPool();

beforeAll(async () => {
  open = await startService({ label: 'events-targets', privateTargets: true, env: { ...FAST_EVENTS, EVENT_DELIVERY_TIMEOUT_MS: '1000' } });
  guarded = await startService({ label: 'events-targets-guarded', env: FAST_EVENTS });
}, 120000);
afterAll(async () => {
  await receivers.downAll();
  await guarded.stop();
  await open.stop();
});

const receiver = () => receivers.start();

/** The only things the delivery log may say of a failed attempt. */
const ALLOWED = [/^The connection was refused\.$/, /^The receiver did not answer in time\.$/, /^The receiver answered \d{3}\.$/];
const LEAKS = /\d+\.\d+\.\d+\.\d+|::|\bE[A-Z]{3,}\b|getaddrinfo|certificate|SSL|TLS|wrong version|socket|resolve|public|private|ms\b/i;

async function firstFailure(svc: Service, s: { dev: Developer; base: string }, subscriptionId: string) {
  expect((await svc.call('POST', `${s.base}/${subscriptionId}/test`, { key: s.dev.key })).status).toBe(202);
  return eventually(
    async () => {
      const item = (await svc.call('GET', `${s.base}/${subscriptionId}/deliveries`, { key: s.dev.key })).body.result.items[0];
      return item && item.attempts >= 1 && item.lastError ? item : undefined;
    },
    20000,
    'a failed attempt',
  );
}

test('without EVENT_TARGETS_ALLOW_PRIVATE, a new account cannot subscribe a loopback or private address, whatever the database', async () => {
  const s = await ownStore(guarded);
  const local = await receiver();
  for (const url of [local.url, 'http://localhost:4010/control/reset', 'http://10.0.0.7/hook', 'http://[::1]:3000/hook']) {
    const res = await guarded.call('POST', s.base, { key: s.dev.key, body: { url, eventTypes: ['*'] } });
    expect([url, res.status, res.body.error?.code]).toEqual([url, 400, 'targetNotAllowed']);
  }
});

test('the guard refuses private addresses in their NAT64, 6to4, IPv4-compatible and IPv4-mapped IPv6 forms, and lets their public ones through', async () => {
  const s = await ownStore(guarded);
  const refused = [
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    '[::ffff:10.1.2.3]',
    '[::ffff:0:a9fe:a9fe]', // IPv4-mapped (and translated) loopback, private, link-local
    '[::127.0.0.1]',
    '[::a00:1]',
    '[::c0a8:101]', // IPv4-compatible
    '[64:ff9b::127.0.0.1]',
    '[64:ff9b::a9fe:a9fe]',
    '[64:ff9b::c0a8:1]',
    '[64:ff9b:1::a00:1]',
    '[64:ff9b:1:ffff::1]', // NAT64, well-known and local-use
    '[2002:7f00:1::1]',
    '[2002:a00:1::]',
    '[2002:c0a8:101:1::1]',
    '[2002:a9fe:a9fe::1]', // 6to4
    '[::]',
    '[fe80::1]',
    '[fd00::1]',
    '[2001:db8::1]',
  ];
  for (const host of refused) {
    const res = await guarded.call('POST', s.base, { key: s.dev.key, body: { url: `http://${host}/hook`, eventTypes: ['*'] } });
    expect([host, res.status, res.body.error?.code]).toEqual([host, 400, 'targetNotAllowed']);
  }
  for (const host of ['[64:ff9b::5db8:d822]', '[2002:5db8:d822::1]', '[::ffff:93.184.216.34]', '[2606:4700:4700::1111]', '93.184.216.34']) {
    const res = await guarded.call('POST', s.base, { key: s.dev.key, body: { url: `https://${host}/hook`, eventTypes: ['connection.healthChanged'] } });
    expect([host, res.status]).toEqual([host, 201]);
    seen.secrets.add(res.body.result.secret);
    await guarded.call('DELETE', `${s.base}/${res.body.result.id}`, { key: s.dev.key });
  }
});

test('attack: deprecated and reserved IPv6 ranges are refused as targets (site-local, discard, documentation, SRv6, IETF assignments)', async () => {
  const s = await ownStore(guarded);
  for (const host of [
    '[fec0::1]',
    '[fed0:1::1]',
    '[100::1]',
    '[2001:db8::1]',
    '[3fff::1]',
    '[5f00::1]',
    '[2001:5::1]',
    '[2001:1ff::1]',
    '[::1]',
    '[fc00::1]',
    '[ff0e::1]',
  ]) {
    const res = await guarded.call('POST', s.base, { key: s.dev.key, body: { url: `https://${host}/hook`, eventTypes: ['*'] } });
    expect([host, res.status, res.body.error?.code]).toEqual([host, 400, 'targetNotAllowed']);
  }
  expect((await guarded.db.query('SELECT count(*)::int AS n FROM event_subscriptions WHERE store_id = $1', [s.storeId])).rows[0].n).toBe(0);
});

test('the delivery log says "refused", "timed out" or "status N" and nothing of the network: closed port, unknown host, TLS to plain HTTP, silence, 503', async () => {
  const s = await ownStore(open);
  const closed = await freePort();
  const plain = await receiver();
  const silent = await receiver();
  silent.answer = () => 'hang';
  const failing = await receiver();
  failing.answer = () => 503;
  const cases: Array<[string, RegExp]> = [
    [`http://127.0.0.1:${closed}/hook`, ALLOWED[0]],
    ['http://no-such-host.invalid/hook', ALLOWED[0]],
    [`https://127.0.0.1:${plain.port}/hook`, ALLOWED[0]],
    [silent.url, ALLOWED[1]],
    [failing.url, /^The receiver answered 503\.$/],
  ];
  for (const [url, expected] of cases) {
    const sub = await subscribe(open, s.dev.key, s.storeId, url);
    const d = await firstFailure(open, s, sub.id);
    expect([url, d.lastError]).toEqual([url, expect.stringMatching(expected)]);
    expect([url, LEAKS.test(d.lastError)]).toEqual([url, false]);
    await open.call('DELETE', `${s.base}/${sub.id}`, { key: s.dev.key });
  }
});

test('an address that turns private after it was given (a name now resolving to loopback, a literal changed under it) is refused at connection time, and the log says only "refused"', async () => {
  const s = await ownStore(guarded);
  const target = await receiver();
  const sub = await subscribe(guarded, s.dev.key, s.storeId, 'https://93.184.216.34/hook');
  for (const url of [`http://localhost:${target.port}/hooks`, `http://[::ffff:7f00:1]:${target.port}/hooks`, `http://127.0.0.1:${target.port}/hooks`]) {
    // What a DNS change or a database edit would do: the subscription now points at this machine.
    await guarded.db.query('UPDATE event_subscriptions SET url = $2 WHERE id = $1', [sub.id, url]);
    await guarded.db.query(`DELETE FROM event_deliveries WHERE subscription_id = $1`, [sub.id]);
    const d = await firstFailure(guarded, s, sub.id);
    expect([url, d.lastError]).toEqual([url, 'The connection was refused.']);
  }
  expect(target.received).toEqual([]);
});

leakScanTest();
