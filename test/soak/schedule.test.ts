/**
 * The soak's fault schedule (bench/soak/faults.ts): CI's short run still injects every kind of its deployment and
 * every supplier and provider kind, with the process and database faults over before the last half, which judges
 * memory and connections; long runs keep their cycles.
 */
import { FaultKind, plan } from '../../bench/soak/faults';

const SUPPLIER_KINDS: FaultKind[] = [
  'supplier latency',
  'supplier time-out',
  'supplier 5xx',
  'supplier refusal',
  'supplier account outage',
  'provider capture fault',
];
const OWN_KINDS: FaultKind[] = ['kill api', 'kill worker', 'postgres restart', 'postgres 30 s outage'];
const EMBEDDED_KINDS: FaultKind[] = ['kill embedded service', 'embedded postgres restart', 'embedded postgres 30 s outage'];

function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
}

const count = (kinds: FaultKind[]) => kinds.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<FaultKind, number>());

test.each([1, 7, 42, 1234, 99999])('CI profile (105 s, own), seed %i: every own and supplier kind at least once, no embedded kind', (seed) => {
  const planned = plan(105000, ['own'], lcg(seed));
  const kinds = count(planned.map((p) => p.kind));
  expect([...OWN_KINDS, ...SUPPLIER_KINDS].filter((k) => !kinds.get(k))).toEqual([]);
  expect(EMBEDDED_KINDS.filter((k) => kinds.get(k))).toEqual([]);
});

test('CI profile: the outage is over and the kills done before the last half begins', () => {
  const planned = plan(105000, ['own'], lcg(3)).filter((p) => OWN_KINDS.includes(p.kind));
  const outage = planned.find((p) => p.kind === 'postgres 30 s outage')!;
  expect(outage.at + 30000).toBeLessThan(planned.find((p) => p.kind === 'postgres restart')!.at);
  expect(Math.max(...planned.map((p) => p.at))).toBeLessThan(105000 / 2);
});

test("parcels go into a carrier's exception once a third in, then every two minutes (issue 54), none in the last 20 s", () => {
  const at = (ms: number) =>
    plan(ms, ['own'], lcg(1))
      .filter((p) => p.kind === 'supplier delivery exception')
      .map((p) => p.at);
  expect(at(105000)).toEqual([30000]);
  expect(at(10 * 60000)).toEqual([30000, 150000, 270000, 390000, 510000]);
});

test('no supplier or provider fault starts in the last 20 s: the windows under way end with the load', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    const last = Math.max(
      ...plan(105000, ['own'], lcg(seed))
        .filter((p) => SUPPLIER_KINDS.includes(p.kind))
        .map((p) => p.at),
    );
    expect(last).toBeLessThan(105000 - 20000);
  }
});

test('a 30-minute run on both deployments keeps five whole cycles in its first half', () => {
  const planned = plan(30 * 60000, ['own', 'embedded'], lcg(5));
  const kinds = count(planned.map((p) => p.kind));
  expect([
    kinds.get('kill api'),
    kinds.get('kill worker'),
    kinds.get('postgres 30 s outage'),
    kinds.get('kill embedded service'),
    kinds.get('embedded postgres 30 s outage'),
  ]).toEqual([10, 10, 5, 5, 5]);
  expect(Math.max(...planned.filter((p) => !SUPPLIER_KINDS.includes(p.kind) && p.kind !== 'supplier delivery exception').map((p) => p.at))).toBeLessThan(
    15 * 60000,
  );
  // The deck: over a long run, the six supplier kinds come about equally often.
  const supplier = SUPPLIER_KINDS.map((k) => kinds.get(k) ?? 0);
  expect(Math.max(...supplier) - Math.min(...supplier)).toBeLessThanOrEqual(1);
});
