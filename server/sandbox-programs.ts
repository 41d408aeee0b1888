/**
 * The bundled sandboxes (server/sandboxes/), started when the configuration asks for them (by default only with the
 * embedded database): each a program of its own, a child process on its own port, a real network peer. The service
 * knows them only by address, as it knows any supplier or payment provider.
 */
import path from 'node:path';
import { startChildProgram, type ChildProgram } from './platform/child-program';
import type { Config } from './platform/config';
import { listenFailure } from './platform/environment';
import type { Logger } from './platform/logger';

const SUPPLIER_MAIN = path.join(__dirname, 'sandboxes/supplier/main.js');
const PAYMENT_PROVIDER_MAIN = path.join(__dirname, 'sandboxes/payment-provider/main.js');
const EXCHANGE_RATES_MAIN = path.join(__dirname, 'sandboxes/exchange-rates/main.js');
/** Where the ECB-format server publishes its daily file, as the ECB does. */
const DAILY_PATH = '/stats/eurofxref/eurofxref-daily.xml';

/** What a sandbox program reads from its environment: only this, never the service's secrets. */
function programEnv(vars: Record<string, string>): Record<string, string> {
  const level = process.env.SANDBOX_LOG_LEVEL;
  return { ...vars, ...(level ? { SANDBOX_LOG_LEVEL: level } : {}) };
}

/**
 * Starts the sandboxes the configuration asks for and sets their addresses in `config`; answers the lines the
 * start-up banner adds (a control API is said out loud whenever it is on) and how to stop them.
 */
export async function startSandboxPrograms(config: Config, log: Logger): Promise<{ banner: string[]; stops: Array<() => Promise<void>> }> {
  const banner: string[] = [];
  const stops: Array<() => Promise<void>> = [];
  // One switch for both sandboxes' fault injection (local trials only).
  const control = config.sandboxSupplierControl;
  const onOff = control ? '1' : '0';
  const supplier =
    config.sandboxSupplier && !config.sandboxSupplierUrl
      ? startChildProgram(
          SUPPLIER_MAIN,
          programEnv({
            SANDBOX_PORT: String(config.sandboxSupplierPort),
            SANDBOX_CONTROL: onOff,
            SANDBOX_AUTO_SHIP_MS: String(config.sandboxSupplierAutoShipMs),
          }),
          'the sandbox supplier',
          log,
        )
      : null;
  const payments =
    config.sandboxPayments && !config.sandboxPaymentsUrl
      ? startChildProgram(
          PAYMENT_PROVIDER_MAIN,
          programEnv({ SANDBOX_PAYMENTS_PORT: String(config.sandboxPaymentsPort), SANDBOX_PAYMENTS_CONTROL: onOff }),
          'the sandbox payment provider',
          log,
        )
      : null;
  // The embedded default never reaches the ECB: the bundled ECB-format server publishes its rates instead.
  const rates = config.sandboxExchangeRates
    ? startChildProgram(
        EXCHANGE_RATES_MAIN,
        programEnv({ SANDBOX_EXCHANGE_RATES_PORT: String(config.sandboxExchangeRatesPort), SANDBOX_EXCHANGE_RATES_CONTROL: onOff }),
        'the sandbox exchange rates',
        log,
      )
    : null;
  // All start at once; a failure of a later one is said after the first's (a failed start exits the service anyway).
  void payments?.catch(() => undefined);
  void rates?.catch(() => undefined);
  const started = async (running: Promise<ChildProgram>, name: string, variable: string, port: number) => {
    const program = await running.catch((err: unknown) => {
      throw listenFailure(err, variable, port, `the ${name}`);
    });
    stops.push(() => program.stop());
    log.info({ baseUrl: program.baseUrl, control }, `${name} started`);
    // Anyone who reaches a control API can inject faults and move money: said out loud whenever it is on.
    if (control) log.warn({ controlUrl: `${program.baseUrl}/control` }, `${name} control API is on`);
    return program.baseUrl;
  };
  if (supplier) {
    config.sandboxSupplierUrl = await started(supplier, 'sandbox supplier', 'SANDBOX_SUPPLIER_PORT', config.sandboxSupplierPort);
    if (control)
      banner.push(
        `  Sandbox supplier control API is ON at ${config.sandboxSupplierUrl}/control (fault injection, for local trials; SANDBOX_SUPPLIER_CONTROL=0 turns it off)`,
      );
  }
  if (payments) {
    config.sandboxPaymentsUrl = await started(payments, 'sandbox payment provider', 'SANDBOX_PAYMENTS_PORT', config.sandboxPaymentsPort);
    if (control)
      banner.push(
        `  Sandbox payment provider control API is ON at ${config.sandboxPaymentsUrl}/control (capture faults, for local trials; SANDBOX_SUPPLIER_CONTROL=0 turns it off)`,
      );
  }
  if (rates) {
    const baseUrl = await started(rates, 'sandbox exchange rates', 'SANDBOX_EXCHANGE_RATES_PORT', config.sandboxExchangeRatesPort);
    config.exchangeRatesUrl = `${baseUrl}${DAILY_PATH}`;
    if (control) banner.push(`  Sandbox exchange rates control API is ON at ${baseUrl}/control (rates, date, faults; SANDBOX_SUPPLIER_CONTROL=0 turns it off)`);
  }
  return { banner, stops };
}
