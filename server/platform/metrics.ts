import client from 'prom-client';

export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

const httpRequests = new client.Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by route and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

const httpDuration = new client.Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration, by route',
  labelNames: ['method', 'route'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

export const creditsCharged = new client.Counter({
  name: 'credits_charged_total',
  help: 'Credits charged, by action',
  labelNames: ['action'] as const,
  registers: [registry],
});

// The label-bound series of each (method, route, status), kept: prom-client hashes the labels on every call otherwise.
const requestSeries = new Map<string, { count: { inc(): void }; duration: { observe(v: number): void } }>();

/** One answered request: counted, and its duration observed, under its route's template (a bounded set). */
export function recordRequest(method: string, route: string, status: number, seconds: number): void {
  const key = `${method} ${status} ${route}`;
  let series = requestSeries.get(key);
  if (!series) {
    series = { count: httpRequests.labels(method, route, String(status)), duration: httpDuration.labels(method, route) };
    requestSeries.set(key, series);
  }
  series.count.inc();
  series.duration.observe(seconds);
}
