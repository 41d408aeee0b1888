/**
 * Production defaults (docs/operations.md, "Deployment checklist"): with DATABASE_URL set, nothing meant for
 * local trials is on unless asked for, and what is on is said at start.
 */
import { leakScanTest, Service, startService } from '../support/harness';

async function sandboxOf(svc: Service): Promise<{ baseUrl: string; control: boolean }> {
  const line = await svc.waitForLog((l) => l.msg === 'sandbox supplier started');
  return { baseUrl: String(line.baseUrl), control: Boolean(line.control) };
}

test('with DATABASE_URL, a bundled sandbox supplier starts without its control API, and the start says nothing of one', async () => {
  const svc = await startService({ label: 'defaults-off', env: { SANDBOX_SUPPLIER: '1', SANDBOX_SUPPLIER_PORT: '0' } });
  try {
    const sandbox = await sandboxOf(svc);
    expect(sandbox.control).toBe(false);
    const faults = await fetch(`${sandbox.baseUrl}/control/faults`);
    expect(faults.status).toBe(404);
    expect((await fetch(`${sandbox.baseUrl}/control/accounts`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status).toBe(404);
    // The supplier API itself answers: it is the control routes that are missing.
    expect((await fetch(`${sandbox.baseUrl}/v1/products?pageSize=1`, { headers: { Authorization: 'Bearer sbx_live_demo' } })).status).toBe(200);
    expect(svc.stderr()).not.toMatch(/control API/i);
    expect(svc.logs.some((l) => l.msg === 'sandbox supplier control API is on')).toBe(false);
  } finally {
    await svc.stop();
  }
});

test('SANDBOX_SUPPLIER_CONTROL=1 turns it on, and both the banner and the log say so', async () => {
  const svc = await startService({ label: 'defaults-on', env: { SANDBOX_SUPPLIER: '1', SANDBOX_SUPPLIER_PORT: '0', SANDBOX_SUPPLIER_CONTROL: '1' } });
  try {
    const sandbox = await sandboxOf(svc);
    expect(sandbox.control).toBe(true);
    expect((await fetch(`${sandbox.baseUrl}/control/faults`)).status).toBe(200);
    const warned = await svc.waitForLog((l) => l.msg === 'sandbox supplier control API is on');
    expect(warned).toMatchObject({ level: 40, controlUrl: `${sandbox.baseUrl}/control` });
    expect(svc.stderr()).toContain(`Sandbox supplier control API is ON at ${sandbox.baseUrl}/control`);
  } finally {
    await svc.stop();
  }
});

leakScanTest();
