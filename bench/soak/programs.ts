/**
 * The programs beside the service: the sandbox supplier, the sandbox payment provider, the CJ-format, the
 * AliExpress-format and the Printful-format servers. Each is found through its npm script (`sandbox-supplier`,
 * `sandbox-payments`, `fake-cj`, `fake-aliexpress`, `fake-printful`: the `node <file>` it runs), so the soak follows them wherever they move, and each
 * is run by hand as its script would: it prints one JSON line saying where it listens. The soak talks to them only
 * through their own APIs and control APIs.
 */
import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../../..');

/** The JavaScript file an npm script of the repository runs with `node`. */
export function scriptFile(script: string): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const line = pkg.scripts[script];
  const file = line && /\bnode\s+(\S+\.js)\b/.exec(line)?.[1];
  if (!file) throw new Error(`package.json has no script "${script}" running a file with node`);
  const full = path.join(ROOT, file);
  if (!fs.existsSync(full)) throw new Error(`${file} (of the npm script "${script}") is not built: run npm run soak, which builds it`);
  return full;
}

export interface Program {
  name: string;
  proc: ChildProcess;
  /** The JSON line it printed when listening. */
  banner: Record<string, Record<string, string>>;
  stderr(): string;
  stop(): Promise<void>;
}

/** Runs a program's script file with `env` and waits for its one JSON line. */
export async function startProgram(script: string, env: Record<string, string>): Promise<Program> {
  const proc = spawn(process.execPath, [scriptFile(script)], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  proc.stderr!.on('data', (c: Buffer) => {
    err = (err + c.toString('utf8')).slice(-20000);
  });
  const banner = await new Promise<Program['banner']>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${script} did not say where it listens within 30 s: ${err}`)), 30000);
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      try {
        resolve(JSON.parse(out.slice(0, nl)));
      } catch {
        reject(new Error(`${script} printed ${out.slice(0, 200)} instead of its JSON line`));
      }
    });
    proc.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${err}`)));
  });
  proc.stdout!.resume();
  return {
    name: script,
    proc,
    banner,
    stderr: () => err,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    },
  };
}

/** The four programs, each with its control API on, and the addresses the service and the soak use. */
export interface Suppliers {
  sandbox: { baseUrl: string; control: string };
  payments: { baseUrl: string; control: string };
  cj: { baseUrl: string; control: string };
  aliexpress: { baseUrl: string; control: string; appKey: string; appSecret: string };
  printful: { baseUrl: string; control: string };
  /** The ECB-format exchange rates server both deployments fetch their daily rates from. */
  rates: { dailyUrl: string };
  programs: Program[];
}

export async function startSuppliers(): Promise<Suppliers> {
  const quiet = { SANDBOX_LOG_LEVEL: 'silent' };
  const started: Program[] = [];
  const start = async (script: string, env: Record<string, string>) => {
    try {
      started.push(await startProgram(script, env));
    } catch (err) {
      for (const p of started) await p.stop();
      throw err;
    }
    return started[started.length - 1];
  };
  // Paid sandbox orders ship by themselves after 15 s; a create that "times out after succeeding" is held 8 s.
  const sandbox = await start('sandbox-supplier', {
    ...quiet,
    SANDBOX_PORT: '0',
    SANDBOX_CONTROL: '1',
    SANDBOX_AUTO_SHIP_MS: '15000',
    SANDBOX_CREATE_HANG_MS: '8000',
  });
  const payments = await start('sandbox-payments', { ...quiet, SANDBOX_PAYMENTS_PORT: '0', SANDBOX_PAYMENTS_CONTROL: '1' });
  const cj = await start('fake-cj', { FAKE_CJ_PORT: '0' });
  const ae = await start('fake-aliexpress', { FAKE_ALIEXPRESS_PORT: '0' });
  // Confirmed Printful orders go into production after 10 s and ship after 20 s (with their webhooks).
  const pf = await start('fake-printful', { FAKE_PRINTFUL_PORT: '0', FAKE_PRINTFUL_ADVANCE_MS: '10000' });
  const rates = await start('sandbox-exchange-rates', { ...quiet, SANDBOX_EXCHANGE_RATES_PORT: '0' });
  const sbx = sandbox.banner.sandboxSupplier.baseUrl;
  const pay = payments.banner.sandboxPayments.baseUrl;
  return {
    sandbox: { baseUrl: sbx, control: `${sbx}/control` },
    payments: { baseUrl: pay, control: `${pay}/control` },
    cj: { baseUrl: cj.banner.fakeCj.baseUrl, control: cj.banner.fakeCj.controlUrl },
    aliexpress: {
      baseUrl: ae.banner.fakeAliExpress.baseUrl,
      control: ae.banner.fakeAliExpress.controlUrl,
      appKey: ae.banner.fakeAliExpress.appKey,
      appSecret: ae.banner.fakeAliExpress.appSecret,
    },
    printful: { baseUrl: pf.banner.fakePrintful.baseUrl, control: pf.banner.fakePrintful.controlUrl },
    rates: { dailyUrl: rates.banner.sandboxExchangeRates.dailyUrl },
    programs: started,
  };
}
