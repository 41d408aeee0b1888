/**
 * The bundled sandboxes are programs of their own (docs/decisions.md, "The sandboxes are programs of their own"):
 * started by the service as child processes, given none of its secrets, and gone with it however it ends.
 */
import fs from 'node:fs';
import { eventually, leakScanTest, type Service, startService } from '../support/harness';
import { childrenOf } from '../support/own-postgres';

// EXCHANGE_RATES_URL unset, as in `npm start`: the bundled ECB-format server starts and the service reads it.
const BOTH = {
  SANDBOX_SUPPLIER: '1',
  SANDBOX_SUPPLIER_PORT: '0',
  SANDBOX_PAYMENTS: '1',
  SANDBOX_PAYMENTS_PORT: '0',
  SANDBOX_SUPPLIER_CONTROL: '1',
  SANDBOX_EXCHANGE_RATES: '1',
  SANDBOX_EXCHANGE_RATES_PORT: '0',
  EXCHANGE_RATES_URL: '',
};
const commandOf = (pid: number) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
const environOf = (pid: number) => fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
const answers = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(2000) }).then(
    (r) => r.status,
    () => null,
  );

async function sandboxesOf(svc: Service) {
  const supplier = String((await svc.waitForLog((l) => l.msg === 'sandbox supplier started')).baseUrl);
  const payments = String((await svc.waitForLog((l) => l.msg === 'sandbox payment provider started')).baseUrl);
  const rates = String((await svc.waitForLog((l) => l.msg === 'sandbox exchange rates started')).baseUrl);
  const children = childrenOf(svc.proc.pid!);
  const pidOf = (script: string) => children.find((pid) => commandOf(pid).includes(script));
  return {
    supplier,
    payments,
    rates,
    supplierPid: pidOf('sandboxes/supplier/main.js'),
    paymentsPid: pidOf('sandboxes/payment-provider/main.js'),
    ratesPid: pidOf('sandboxes/exchange-rates/main.js'),
  };
}

test("each sandbox is a child process of its own, with none of the service's secrets in its environment", async () => {
  const svc = await startService({ label: 'sandbox-programs', env: BOTH });
  try {
    const s = await sandboxesOf(svc);
    expect(s.supplierPid).toBeDefined();
    expect(s.paymentsPid).toBeDefined();
    // They answer on their own ports, as any supplier or payment provider would.
    expect((await fetch(`${s.supplier}/v1/products?pageSize=1`, { headers: { Authorization: 'Bearer sbx_live_demo' } })).status).toBe(200);
    expect(await answers(`${s.payments}/control/faults`)).toBe(200);
    expect(s.ratesPid).toBeDefined();
    expect(await answers(`${s.rates}/stats/eurofxref/eurofxref-daily.xml`)).toBe(200);
    // The service read its rates from the bundled server, never from the ECB.
    expect(await svc.waitForLog((l) => l.msg === 'exchange rates fetched')).toMatchObject({ source: 'ecb', asOfDate: new Date().toISOString().slice(0, 10) });
    for (const pid of [s.supplierPid!, s.paymentsPid!, s.ratesPid!]) {
      const names = environOf(pid).map((e) => e.slice(0, e.indexOf('=')));
      expect(names).not.toEqual(expect.arrayContaining(['APP_SECRET']));
      // Its own variables, and the IPC channel Node sets up for it: nothing else.
      expect(names.filter((n) => !n.startsWith('SANDBOX_') && !n.startsWith('NODE_CHANNEL_'))).toEqual([]);
    }
    // A graceful stop of the service stops them too.
    expect(await svc.stop('SIGTERM')).toBe(0);
    expect(await answers(s.supplier)).toBeNull();
    expect(await answers(s.payments)).toBeNull();
    expect(await answers(s.rates)).toBeNull();
  } finally {
    await svc.stop();
  }
});

test('SIGKILL of the service alone: its sandboxes stop by themselves', async () => {
  const svc = await startService({ label: 'sandbox-orphans', env: BOTH });
  const s = await sandboxesOf(svc);
  expect(await answers(s.supplier)).toBe(200);
  await svc.stop('SIGKILL');
  // A sandbox closes its port before its process ends: wait for both, then check both.
  const running = (pid: number) => {
    try {
      return commandOf(pid).includes('sandboxes/'); // a zombie's command line reads empty
    } catch {
      return false; // the process is gone
    }
  };
  const gone = async () => (await answers(s.supplier)) === null && (await answers(s.payments)) === null && !running(s.supplierPid!) && !running(s.paymentsPid!);
  await eventually(async () => ((await gone()) ? true : undefined), 20000, 'the sandboxes to stop');
  for (const pid of [s.supplierPid!, s.paymentsPid!]) expect(running(pid)).toBe(false);
});

leakScanTest();
