/**
 * The service writes its log lines in batches (docs/decisions.md, "Log lines in batches"): an orderly stop still
 * writes every line, up to the last one said before the process exits.
 */
import { newDeveloper, startService } from '../support/harness';

test('SIGTERM: the access lines of the last requests and the shutdown lines all reach stdout', async () => {
  const svc = await startService({ label: 'logflush', role: 'api' });
  const dev = await newDeveloper(svc, { plan: 'pro' });
  // A few lines, far fewer than the buffer holds: on their own they would wait for the periodic flush.
  const ids = Array.from({ length: 5 }, (_, i) => `flush-${i}-${Date.now()}`);
  for (const id of ids) {
    const res = await svc.call('GET', '/api/api-key/current', { key: dev.key, headers: { 'X-Request-Id': id } });
    expect(res.status).toBe(200);
  }
  // Every byte of stdout, read until the pipe closes (the child's `exit` may come before its last output is read).
  const closed = new Promise((resolve) => svc.proc.once('close', resolve));
  expect(await svc.stop('SIGTERM')).toBe(0);
  await closed;
  const access = svc.logs.filter((l) => l.msg === 'request' && ids.includes(String(l.requestId)));
  expect(access.map((l) => [l.requestId, l.status, l.route])).toEqual(ids.map((id) => [id, 200, '/api/api-key/current']));
  const msgs = svc.logs.map((l) => l.msg);
  expect(msgs).toContain('shutting down');
  // Logged right before process.exit: only the flush at exit writes it.
  expect(msgs[msgs.length - 1]).toBe('stopped');
});
