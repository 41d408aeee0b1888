/** What the ECB-format server publishes, and the faults its next answers carry. */
export interface RatesState {
  /** The publication date of the file (YYYY-MM-DD). */
  date: string;
  /** Currency → units per euro, as text exactly as published. */
  rates: Record<string, string>;
  faults: Faults;
}

/** Each a count of the next requests answered so: a 5xx, no answer at all (held until the client gives up), or a malformed file. */
export interface Faults {
  unavailable: number;
  timeout: number;
  malformed: number;
}

export const noFaults = (): Faults => ({ unavailable: 0, timeout: 0, malformed: 0 });

/** Rates of a plausible day (ECB, 28 June 2024), published as of today until the control API says otherwise. */
export const DEFAULT_RATES: Record<string, string> = {
  USD: '1.0705',
  JPY: '171.94',
  BGN: '1.9558',
  CZK: '25.011',
  DKK: '7.4575',
  GBP: '0.84638',
  HUF: '395.20',
  PLN: '4.3090',
  RON: '4.9773',
  SEK: '11.3535',
  CHF: '0.9629',
  ISK: '148.70',
  NOK: '11.3965',
  TRY: '35.1650',
  AUD: '1.6079',
  BRL: '5.8915',
  CAD: '1.4670',
  CNY: '7.7748',
  HKD: '8.3594',
  IDR: '17487.47',
  ILS: '4.0378',
  INR: '89.2495',
  KRW: '1474.86',
  MXN: '19.5654',
  MYR: '5.0501',
  NZD: '1.7601',
  PHP: '62.739',
  SGD: '1.4486',
  THB: '39.331',
  ZAR: '19.4970',
};

export function newState(): RatesState {
  return { date: new Date().toISOString().slice(0, 10), rates: { ...DEFAULT_RATES }, faults: noFaults() };
}

/** The file as the ECB publishes it (eurofxref-daily.xml). */
export function dailyXml(state: RatesState): string {
  const cubes = Object.entries(state.rates).map(([currency, rate]) => `\t\t\t<Cube currency='${currency}' rate='${rate}'/>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">',
    '\t<gesmes:subject>Reference rates</gesmes:subject>',
    '\t<gesmes:Sender>',
    '\t\t<gesmes:name>European Central Bank</gesmes:name>',
    '\t</gesmes:Sender>',
    '\t<Cube>',
    `\t\t<Cube time='${state.date}'>`,
    ...cubes,
    '\t\t</Cube>',
    '\t</Cube>',
    '</gesmes:Envelope>',
    '',
  ].join('\n');
}
