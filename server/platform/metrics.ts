import client from 'prom-client';

export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** One (method, route, status): plain numbers a request adds to, read only when /metrics is asked. */
interface Series {
  method: string;
  route: string;
  status: string;
  count: number;
  sum: number;
  /** Requests per bucket (not cumulative); the last counts those above every bound. */
  buckets: number[];
}

// route → method → status: found without making a key string per request, and without prom-client hashing the
// labels on every call (it does, even for label-bound children).
const byRoute = new Map<string, Map<string, Map<number, Series>>>();
const all: Series[] = [];

/** One answered request: counted, and its duration observed, under its route's template (a bounded set). */
export function recordRequest(method: string, route: string, status: number, seconds: number): void {
  let byMethod = byRoute.get(route);
  if (!byMethod) byRoute.set(route, (byMethod = new Map()));
  let byStatus = byMethod.get(method);
  if (!byStatus) byMethod.set(method, (byStatus = new Map()));
  let series = byStatus.get(status);
  if (!series) {
    series = { method, route, status: String(status), count: 0, sum: 0, buckets: new Array<number>(BUCKETS.length + 1).fill(0) };
    byStatus.set(status, series);
    all.push(series);
  }
  series.count++;
  series.sum += seconds;
  let b = 0;
  while (b < BUCKETS.length && seconds > BUCKETS[b]) b++;
  series.buckets[b]++;
}

// prom-client's types declare MetricType a numeric enum that does not exist at run time; its registry prints `type`
// as given, and its own metrics give these strings.
const COUNTER_TYPE = 'counter' as unknown as client.MetricType;
const HISTOGRAM_TYPE = 'histogram' as unknown as client.MetricType;
const COUNTER = { name: 'http_requests_total', help: 'HTTP requests answered, by route and status', aggregator: 'sum', collect: () => undefined } as const;
const DURATIONS = { name: 'http_request_duration_seconds', help: 'HTTP request duration, by route', aggregator: 'sum', collect: () => undefined } as const;

/** The request counter, read from the series at scrape time. */
class RequestCounter extends client.Counter<'method' | 'route' | 'status'> {
  override async get() {
    const values = all.map((s) => ({ labels: { method: s.method, route: s.route, status: s.status }, value: s.count }));
    return { ...COUNTER, type: COUNTER_TYPE, values };
  }
}

/** The duration histogram by (method, route), summed over statuses at scrape time. `le` is the buckets' own label. */
class RequestDurations extends client.Histogram<'method' | 'route' | 'le'> {
  override async get() {
    const merged = new Map<string, { labels: { method: string; route: string }; count: number; sum: number; buckets: number[] }>();
    for (const s of all) {
      const key = `${s.method} ${s.route}`;
      let m = merged.get(key);
      if (!m) merged.set(key, (m = { labels: { method: s.method, route: s.route }, count: 0, sum: 0, buckets: new Array<number>(BUCKETS.length).fill(0) }));
      m.count += s.count;
      m.sum += s.sum;
      for (let b = 0; b < BUCKETS.length; b++) m.buckets[b] += s.buckets[b];
    }
    const { name } = DURATIONS;
    const values: client.MetricValueWithName<'method' | 'route' | 'le'>[] = [];
    for (const m of merged.values()) {
      let acc = 0;
      BUCKETS.forEach((le, b) => values.push({ labels: { le, ...m.labels }, value: (acc += m.buckets[b]), metricName: `${name}_bucket` }));
      values.push({ labels: { le: '+Inf', ...m.labels }, value: m.count, metricName: `${name}_bucket` });
      values.push({ labels: m.labels, value: m.sum, metricName: `${name}_sum` });
      values.push({ labels: m.labels, value: m.count, metricName: `${name}_count` });
    }
    return { ...DURATIONS, type: HISTOGRAM_TYPE, values };
  }

  /** What the registry reads for the text format when a metric has it (prom-client's histogram does). */
  getForPromString() {
    return this.get();
  }
}

new RequestCounter({ name: COUNTER.name, help: COUNTER.help, labelNames: ['method', 'route', 'status'], registers: [registry] });
new RequestDurations({ name: DURATIONS.name, help: DURATIONS.help, labelNames: ['method', 'route'], buckets: BUCKETS, registers: [registry] });

export const creditsCharged = new client.Counter({
  name: 'credits_charged_total',
  help: 'Credits charged, by action',
  labelNames: ['action'] as const,
  registers: [registry],
});
