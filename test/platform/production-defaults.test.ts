/**
 * Production defaults (docs/operations.md, "Deployment checklist"): with DATABASE_URL set, nothing meant for
 * local trials is on unless asked for, and what is on is said at start.
 */
import { eventually, leakScanTest, Service, startService } from '../support/harness';

async function sandboxOf(svc: Service, which = 'sandbox supplier'): Promise<{ baseUrl: string; control: boolean }> {
  const line = await svc.waitForLog((l) => l.msg === `${which} started`);
  return { baseUrl: String(line.baseUrl), control: Boolean(line.control) };
}
const BOTH = { SANDBOX_SUPPLIER: '1', SANDBOX_SUPPLIER_PORT: '0', SANDBOX_PAYMENTS: '1', SANDBOX_PAYMENTS_PORT: '0' };

test('with DATABASE_URL, the bundled sandboxes start without their control APIs, and the start says nothing of one', async () => {
  const svc = await startService({ label: 'defaults-off', env: BOTH });
  try {
    const payments = await sandboxOf(svc, 'sandbox payment provider');
    expect(payments.control).toBe(false);
    expect(
      (
        await fetch(`${payments.baseUrl}/control/faults`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{"refuseCapture":{"count":1}}',
        })
      ).status,
    ).toBe(404);
    const sandbox = await sandboxOf(svc);
    expect(sandbox.control).toBe(false);
    const faults = await fetch(`${sandbox.baseUrl}/control/faults`);
    expect(faults.status).toBe(404);
    expect((await fetch(`${sandbox.baseUrl}/control/accounts`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status).toBe(
      404,
    );
    // The supplier API itself answers: it is the control routes that are missing.
    expect((await fetch(`${sandbox.baseUrl}/v1/products?pageSize=1`, { headers: { Authorization: 'Bearer sbx_live_demo' } })).status).toBe(200);
    expect(svc.stderr()).not.toMatch(/control API/i);
    expect(svc.logs.some((l) => l.msg === 'sandbox supplier control API is on')).toBe(false);
  } finally {
    await svc.stop();
  }
});

test('SANDBOX_SUPPLIER_CONTROL=1 turns both on, and both the banner and the log say so', async () => {
  const svc = await startService({ label: 'defaults-on', env: { ...BOTH, SANDBOX_SUPPLIER_CONTROL: '1' } });
  try {
    const payments = await sandboxOf(svc, 'sandbox payment provider');
    expect((await fetch(`${payments.baseUrl}/control/faults`)).status).toBe(200);
    expect(await svc.waitForLog((l) => l.msg === 'sandbox payment provider control API is on')).toMatchObject({
      level: 40,
      controlUrl: `${payments.baseUrl}/control`,
    });
    // The banner is printed once every sandbox has started, after the log line: wait for it.
    const bannerP = `Sandbox payment provider control API is ON at ${payments.baseUrl}/control`;
    await eventually(async () => svc.stderr().includes(bannerP) || undefined, 30_000, 'the banner');
    const sandbox = await sandboxOf(svc);
    expect(sandbox.control).toBe(true);
    expect((await fetch(`${sandbox.baseUrl}/control/faults`)).status).toBe(200);
    const warned = await svc.waitForLog((l) => l.msg === 'sandbox supplier control API is on');
    expect(warned).toMatchObject({ level: 40, controlUrl: `${sandbox.baseUrl}/control` });
    // The banner is printed once every sandbox has started, after the log line: wait for it.
    const bannerS = `Sandbox supplier control API is ON at ${sandbox.baseUrl}/control`;
    await eventually(async () => svc.stderr().includes(bannerS) || undefined, 30_000, 'the banner');
  } finally {
    await svc.stop();
  }
});

leakScanTest();
