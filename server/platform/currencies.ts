/**
 * ISO 4217's minor units: how many decimals each currency's amounts have (JPY 0, USD 2, KWD 3, CLF 4). Every amount
 * the service parses, formats, sums or compares is an integer count of these units; this table, not Intl's locale data
 * (which follows display habits, not the standard), says how many there are. Codes withdrawn lately (ANG, BGN, HRK,
 * SLL) stay readable: records made before may carry them.
 */
const ZERO = 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF';
const THREE = 'BHD IQD JOD KWD LYD OMR TND';
const FOUR = 'CLF UYW';
const TWO =
  'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN BZD CAD CDF CHE CHF ' +
  'CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HRK HTG ' +
  'HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK ' +
  'MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE ' +
  'SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG YER ZAR ' +
  'ZMW ZWG';

const EXPONENTS = new Map<string, number>([
  ...ZERO.split(' ').map((c) => [c, 0] as const),
  ...TWO.split(' ').map((c) => [c, 2] as const),
  ...THREE.split(' ').map((c) => [c, 3] as const),
  ...FOUR.split(' ').map((c) => [c, 4] as const),
]);

export class UnknownCurrencyError extends Error {}

/** Every code with its decimals, sorted by code: the clients' copies (client/, dotnet/) are generated from this. */
export const currencyTable = (): Array<[string, number]> => [...EXPONENTS].sort(([a], [b]) => (a < b ? -1 : 1));

export const isCurrency = (code: string): boolean => EXPONENTS.has(code);

/** Decimals of the currency's amounts; throws UnknownCurrencyError for a code ISO 4217 does not list. */
export function minorUnitsOf(code: string): number {
  const digits = EXPONENTS.get(code);
  if (digits === undefined) throw new UnknownCurrencyError(`${String(code).slice(0, 8)} is not an ISO 4217 currency`);
  return digits;
}
