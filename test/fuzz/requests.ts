/** Hostile HTTP requests for every operation of the OpenAPI document, and a client that sends them byte for byte. */
import http from 'node:http';
import fc from 'fast-check';
import { encode, hostileValue, maybeHostile, pathSegment, taint, tainted, wellShaped } from './arbitraries';

export interface Operation {
  method: string;
  /** OpenAPI path with {name} parameters. */
  path: string;
  params: Array<{ name: string; in: 'path' | 'query'; schema: Record<string, any> }>;
  body?: Record<string, any>;
  operationId: string;
}

export interface FuzzRequest {
  op: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface Ids {
  /** Real ids by parameter name (storeId, id, productId, ...), so requests reach past the 404s. */
  byName: Record<string, string[]>;
  key: string;
  session: string;
  /** Used only by sign-out. */
  spareSession: string;
}

export function operationsOf(doc: any): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      ops.push({
        method: method.toUpperCase(),
        path,
        params: op.parameters ?? [],
        body: op.requestBody?.content?.['application/json']?.schema,
        operationId: op.operationId,
      });
    }
  }
  return ops;
}

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/xml',
  'application/json-patch+json',
];

function bodyBytes(op: Operation, ids: Ids): fc.Arbitrary<{ body?: Buffer; contentType?: string }> {
  const known = (name: string) => ids.byName[name] ?? [];
  const clean = wellShaped(op.body, known, '', 0, false);
  const value = fc.oneof(
    { weight: 3, arbitrary: clean },
    // A valid body but for one field: the way past validation into the handlers and the database.
    { weight: 8, arbitrary: fc.tuple(clean, fc.nat(), taint, fc.nat(9)).map(([v, pick, change, k]) => tainted(v, pick, change, k === 0)) },
    { weight: 3, arbitrary: maybeHostile(wellShaped(op.body, known), 4) },
  );
  const json = (v: unknown) => Buffer.from(JSON.stringify(v) ?? 'null');
  return fc.oneof(
    { weight: 24, arbitrary: value.map((v) => ({ body: json(v), contentType: 'application/json' })) },
    { weight: 1, arbitrary: fc.constant({}) },
    // Duplicate keys: the last one wins in JSON.parse, and must still be validated.
    {
      weight: 2,
      arbitrary: fc.tuple(value, hostileValue).map(([v, h]) => {
        const text = JSON.stringify(v) ?? 'null';
        const first = v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v)[0] : undefined;
        const dup = first === undefined ? text : `${text.slice(0, -1)},${JSON.stringify(first)}:${JSON.stringify(h) ?? 'null'}}`;
        return { body: Buffer.from(dup), contentType: 'application/json' };
      }),
    },
    { weight: 2, arbitrary: fc.tuple(value, fc.constantFrom(...CONTENT_TYPES)).map(([v, ct]) => ({ body: json(v), contentType: ct })) },
    { weight: 1, arbitrary: value.map((v) => ({ body: json(v) })) },
    // Not JSON at all, or JSON with what JSON.parse refuses or keeps.
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(
          '{',
          '{"a":',
          'null',
          '[]',
          '""',
          '1',
          'true',
          '\u0000',
          '{"a":"\u0000"}',
          '{"a":"\\u0000"}',
          '{"a":"\\ud800"}',
          '{"\\u0000":1}',
          '{"\\udfff":1}',
          '\ufeff{}',
          '{"__proto__":{"polluted":1}}',
          '{"constructor":{"prototype":{"polluted":1}}}',
          '['.repeat(100_000) + ']'.repeat(100_000),
          '{"a":1}garbage',
          'undefined',
        )
        .map((t) => ({ body: Buffer.from(t), contentType: 'application/json' })),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((b) => ({ body: Buffer.from(b), contentType: 'application/json' })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(1_100_000, 300_000).map((n) => ({ body: Buffer.from(`{"a":"${'x'.repeat(n)}"}`), contentType: 'application/json' })),
    },
  );
}

function queryString(op: Operation, ids: Ids): fc.Arbitrary<string> {
  const known = (name: string) => ids.byName[name] ?? [];
  const declared = op.params.filter((p) => p.in === 'query');
  const pairs = fc.array(
    fc.oneof(
      ...(declared.length
        ? [
            {
              weight: 4,
              arbitrary: fc
                .constantFrom(...declared)
                .chain((p) =>
                  maybeHostile(wellShaped(p.schema, known, p.name)).map(
                    (v) => `${encode(p.name)}=${encode(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))}`,
                  ),
                ),
            },
          ]
        : []),
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '__proto__[polluted]=1',
          'constructor[prototype][polluted]=1',
          'a[b][c]=1',
          'pageSize=1&pageSize=2',
          'cursor=%00',
          'cursor=%ED%A0%80',
          '=',
          '&&',
          'x',
          '%',
          'pageSize[]=1',
          'query=' + 'q'.repeat(5000),
        ),
      },
      { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 20 })).map(([k, v]) => `${encode(k)}=${encode(v)}`) },
    ),
    { maxLength: 4 },
  );
  return pairs.map((ps) => (ps.length ? `?${ps.join('&')}` : ''));
}

function pathOf(op: Operation, ids: Ids): fc.Arbitrary<string> {
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const segments = names.map((name) => {
    // Never a real id where the operation deletes: the run must keep its key, store and connection.
    const real = op.method === 'DELETE' && name === names[names.length - 1] ? [] : (ids.byName[name] ?? []);
    const schema = op.params.find((p) => p.name === name)?.schema ?? { type: 'string' };
    const valid = real.length
      ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...real) }, { weight: 1, arbitrary: wellShaped(schema, () => [], name) as fc.Arbitrary<string> })
      : (wellShaped(schema, () => [], name) as fc.Arbitrary<string>);
    return pathSegment(valid.map(String));
  });
  return fc.tuple(...segments).map((values) => {
    let i = 0;
    return op.path.replace(/\{(\w+)\}/g, () => values[i++]);
  });
}

export function requestFor(op: Operation, ids: Ids): fc.Arbitrary<FuzzRequest> {
  // Signing out ends the session it is sent with: that operation gets one of its own.
  const session = op.path === '/api/auth/sign-out' ? ids.spareSession : ids.session;
  const auth = fc.oneof(
    { weight: 12, arbitrary: fc.constant<Record<string, string>>({ 'X-API-Key': ids.key }) },
    { weight: 6, arbitrary: fc.constant<Record<string, string>>({ Authorization: `Bearer ${session}` }) },
    {
      weight: 3,
      arbitrary: fc.constantFrom<Record<string, string>>(
        {},
        { 'X-API-Key': 'sk_live_guess' },
        { Authorization: 'Bearer \t' },
        { Authorization: 'Basic YTpi' },
        { 'X-API-Key': 'x'.repeat(8000) },
      ),
    },
  );
  const withBody = op.body !== undefined || ['POST', 'PUT', 'PATCH', 'DELETE'].includes(op.method);
  return fc
    .record({
      path: pathOf(op, ids),
      query: queryString(op, ids),
      auth,
      payload: withBody ? bodyBytes(op, ids) : fc.constant({} as { body?: Buffer; contentType?: string }),
    })
    .map(({ path, query, auth: a, payload }) => ({
      op: `${op.method} ${op.path}`,
      method: op.method,
      path: path + query,
      headers: { ...a, ...(payload.contentType ? { 'Content-Type': payload.contentType } : {}), accept: 'application/json, text/event-stream' },
      body: payload.body,
    }));
}

/** Sends the request exactly as built; the status, or 'timeout' when no answer came in time. */
export function send(baseUrl: string, req: FuzzRequest, timeoutMs: number): Promise<{ status: number | 'timeout' | 'refused'; text: string }> {
  return new Promise((resolve) => {
    const u = new URL(baseUrl);
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body) headers['Content-Length'] = req.body.length;
    let r: http.ClientRequest;
    try {
      r = http.request({ host: u.hostname, port: u.port, method: req.method, path: req.path, headers, timeout: timeoutMs, agent: false });
    } catch {
      // A path Node itself will not send (for example one with a control character): nothing reached the service.
      resolve({ status: 'refused', text: '' });
      return;
    }
    r.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8').slice(0, 2000) }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, text: '' }));
    });
    r.on('timeout', () => {
      r.destroy();
      resolve({ status: 'timeout', text: '' });
    });
    r.on('error', (err) => resolve({ status: 'refused', text: String(err) }));
    r.end(req.body);
  });
}
