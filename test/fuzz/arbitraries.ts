/**
 * fast-check arbitraries for hostile requests, generated from the OpenAPI document: mostly well-shaped values
 * from each schema, with hostile ones mixed in at every level (wrong types, huge strings, deep nesting, NUL,
 * unpaired surrogates, path tricks, prototype pollution).
 */
import fc from 'fast-check';

type Schema = Record<string, any>;

/** Strings an attacker tries first. */
export const TRICKY_STRINGS = [
  '',
  ' ',
  '.',
  '..',
  '../',
  '..\\',
  '/',
  '//',
  '%2e%2e',
  '%2F',
  '%00',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  'a\udc00',
  '\uffff',
  '\u202e',
  '\r\n',
  '<script>',
  "' OR 1=1 --",
  '${7*7}',
  '__proto__',
  'constructor',
  'prototype',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e309',
  '0x10',
  'SBX-P1',
  'SBX-P1/../account',
  '%ED%A0%80',
  'ä',
  '😀',
  'store',
  'supplier:not-a-uuid',
];

const hugeString = fc
  .constantFrom(10_000, 70_000, 300_000)
  .chain((n) => fc.constantFrom('x', 'é', '\u0000', '\ud800', '😀').map((c) => c.repeat(n / c.length)));

const deepNesting = fc.tuple(fc.constantFrom(33, 200, 1000), fc.boolean()).map(([depth, arrays]) => {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = arrays ? [v] : { a: v };
  return v;
});

const pollution = fc.constantFrom<unknown>(
  JSON.parse('{"__proto__": {"polluted": true, "isAdmin": true}}'),
  JSON.parse('{"constructor": {"prototype": {"polluted": true}}}'),
  JSON.parse('{"__proto__": null}'),
  { toString: 'x', valueOf: 1, hasOwnProperty: 'x' },
);

const weirdString = fc.oneof(
  fc.constantFrom(...TRICKY_STRINGS),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ maxLength: 40 }).map((s) => `${s}\u0000`),
  fc.string({ maxLength: 40 }).map((s) => `\ud83d${s}`),
);

/** Any value of the wrong kind or shape. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: weirdString },
  { weight: 1, arbitrary: hugeString },
  { weight: 1, arbitrary: deepNesting },
  { weight: 2, arbitrary: pollution },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, 1e308, -0, Number.MAX_SAFE_INTEGER + 2, [], {}, [null], { '': '' }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

/** A value that (mostly) satisfies `schema`, built so most requests get past validation into the handlers. */
export function wellShaped(schema: Schema | undefined, known: (name: string) => string[], name = '', depth = 0, hostile = true): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.jsonValue({ maxDepth: 2 });
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map((s) => wellShaped(s, known, name, depth + 1, hostile)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string': {
      const ids = known(name);
      const base =
        schema.format === 'uuid'
          ? fc.uuid()
          : schema.format === 'date-time'
            ? fc.date({ min: new Date(2000, 0, 1), max: new Date(2100, 0, 1), noInvalidDate: true }).map((d) => d.toISOString())
            : schema.format === 'email'
              ? fc.emailAddress()
              : schema.pattern
                ? fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? 200) && s.length >= (schema.minLength ?? 0))
                : fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) });
      return ids.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...ids) }, { weight: 1, arbitrary: base }) : base;
    }
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: Math.min(schema.maximum ?? 1_000_000, 1_000_000_000) });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const item = wellShaped(schema.items, known, name, depth + 1, hostile);
      return fc.array(item, { minLength: Math.min(schema.minItems ?? 0, 3), maxLength: Math.min(schema.maxItems ?? 3, 3) });
    }
    case 'object':
    default: {
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set<string>(schema.required ?? []);
      const entries = Object.entries(props).map(([k, s]) => {
        const value = wellShaped(s, known, k, depth + 1, hostile);
        return [k, hostile ? maybeHostile(value) : value] as const;
      });
      if (!entries.length) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
      return fc.record(Object.fromEntries(entries), { requiredKeys: unique([...required].filter((k) => k in props)) });
    }
  }
}

/** Mostly `arb`, sometimes a hostile value instead. */
export function maybeHostile(arb: fc.Arbitrary<unknown>, odds = 12): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: odds, arbitrary: arb }, { weight: 1, arbitrary: hostileValue });
}

/** A path segment as sent on the wire: encoded, raw tricks, or a hostile string encoded. */
export function pathSegment(valid: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: valid.map(encode) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '.',
        '..',
        '%2e',
        '%2E%2E',
        '.%2e',
        '%00',
        '%ED%A0%80',
        '%E0%A4%A',
        '%FF',
        '%',
        'a%2Fb',
        '%5C..',
        '~',
        '%20',
        ';x=1',
        'x'.repeat(5000),
      ),
    },
    { weight: 2, arbitrary: weirdString.map(encode) },
  );
}

/** encodeURIComponent that never throws: unpaired surrogates go out as their replacement character. */
export function encode(s: string): string {
  return encodeURIComponent(s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
}

/** Text Postgres cannot store, or too much of it: what a valid body carries in one field to reach the database. */
export const taint = fc.oneof(
  fc.constantFrom(
    (s: string) => `${s}\u0000`,
    (s: string) => `\u0000${s}`,
    (s: string) => `${s}\ud800`,
    (s: string) => `\udfff\ud800${s}`,
    (s: string) => `${s}\udc00x`,
  ),
  fc.constantFrom(
    (s: string) => s + 'y'.repeat(25_000),
    (s: string) => `${s}/../..`,
    (s: string) => `${s}%00`,
  ),
);

/** `value` with one of its string leaves (or field names) changed by `change`; chosen by `pick`. */
export function tainted(value: unknown, pick: number, change: (s: string) => string, inKey: boolean): unknown {
  const leaves: Array<(v: unknown) => unknown> = [];
  const walk = (v: unknown, set: (x: unknown) => void): void => {
    if (typeof v === 'string') leaves.push(() => set(change(v)));
    else if (Array.isArray(v)) v.forEach((item, i) => walk(item, (x) => (v[i] = x)));
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) {
        if (inKey)
          leaves.push(() => {
            o[change(k)] = o[k];
            delete o[k];
          });
        walk(o[k], (x) => (o[k] = x));
      }
    }
  };
  const copy = structuredClone(value);
  let result = copy;
  walk(copy, (x) => (result = x));
  if (leaves.length) leaves[pick % leaves.length](undefined);
  return result;
}
