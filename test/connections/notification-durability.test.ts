import crypto from 'node:crypto';
import { signSandboxNotification } from '../../server/sandboxes/supplier';
import { createStore, leakScanTest, newDeveloper, Sandbox, Service, startSandbox, startService } from '../support/harness';

let sandbox: Sandbox;
let svc: Service;

beforeAll(async () => {
  sandbox = await startSandbox();
  // The api role only: no worker takes the read-backs, so every one written is still there to count.
  svc = await startService({ label: 'notify-kill', sandbox, publicBaseUrl: true, role: 'api' });
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

test('every notification answered 200 is durable when the process is SIGKILLed right after answering', async () => {
  const owner = await newDeveloper(svc, { plan: 'pro' });
  const storeId = await createStore(svc, owner.key);
  const acc = await sandbox.account(1_000_000);
  const conn = (
    await svc.call('POST', `/api/store-suppliers/${storeId}`, {
      key: owner.key,
      body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: acc.liveKey } },
    })
  ).body.result;
  const secret = (await sandbox.v1(acc.liveKey, 'PUT', '/webhook', { url: conn.webhookUrl })).body.signingSecret;

  // Many at once, so they are written in shared batches; the process is killed the moment the first 200 arrives.
  const sent = Array.from({ length: 60 }, (_, i) => {
    const orderId = `SBX-KILL-${i}-${crypto.randomBytes(3).toString('hex')}`;
    const body = JSON.stringify({
      id: `evt_kill_${i}_${crypto.randomBytes(4).toString('hex')}`,
      type: 'order.updated',
      createdAt: new Date().toISOString(),
      data: { orderId, orderNumber: `K-${i}`, status: 'shipped' },
    });
    const t = Math.floor(Date.now() / 1000);
    return { orderId, body, headers: { 'Content-Type': 'application/json', 'X-Sandbox-Signature': signSandboxNotification(secret, body, t) } };
  });
  const answers = await Promise.allSettled(
    sent.map(async (n) => {
      const res = await fetch(conn.webhookUrl, { method: 'POST', headers: n.headers, body: n.body });
      if (res.status === 200) svc.proc.kill('SIGKILL');
      return { orderId: n.orderId, status: res.status };
    }),
  );
  if (svc.proc.signalCode === null && svc.proc.exitCode === null) await new Promise((r) => svc.proc.once('exit', r));
  expect(svc.proc.signalCode).toBe('SIGKILL');
  const accepted = answers.flatMap((a) => (a.status === 'fulfilled' && a.value.status === 200 ? [a.value.orderId] : []));
  expect(accepted.length).toBeGreaterThan(0);

  const jobs = (await svc.db.query(`SELECT singleton_key, state, data FROM pgboss.job WHERE name = 'readback.supplier-order'`)).rows as Array<{
    singleton_key: string;
    state: string;
    data: { orderNumber: string };
  }>;
  const receipts = Number((await svc.db.query('SELECT count(*) FROM supplier_notification_receipts WHERE connection_id = $1', [conn.id])).rows[0].count);
  for (const orderId of accepted) {
    expect(jobs.filter((j) => j.singleton_key === `${conn.id}:${orderId}`)).toEqual([expect.objectContaining({ state: 'created' })]);
  }
  expect(receipts).toBeGreaterThanOrEqual(accepted.length);
  // What was written is exactly what was received: a receipt for each read-back, none without.
  expect(jobs).toHaveLength(receipts);
});

leakScanTest();
