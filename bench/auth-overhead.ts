import { developerKey, Figure, startBaselineServer, startBenchService } from './lib';
import { load, loadPair } from './load';

/**
 * API-key authentication: GET /api/api-key/current against the bench's bare route answering the same key and
 * account with one indexed lookup (bench/baseline-server.ts), both on this machine and database.
 */
export async function authOverhead(databaseUrl: string): Promise<Figure[]> {
  // Role `api`: the request path's process alone, no workers polling beside it while its CPU is metered.
  const svc = await startBenchService(databaseUrl, {}, { args: ['--role', 'api'], profile: true });
  const bare = await startBaselineServer(databaseUrl, svc.appSecret, { profile: true });
  try {
    const { key } = await developerKey(svc);
    const check = await fetch(`${bare.baseUrl}/api-key/current`, { headers: { 'X-API-Key': key } });
    if (check.status !== 200) throw new Error(`the bare key route answered ${check.status}`);
    await load(`${bare.baseUrl}/api-key/current`, { 'X-API-Key': key }, { seconds: 1 }); // warm-up
    await load(`${svc.baseUrl}/api/api-key/current`, { 'X-API-Key': key }, { seconds: 1 });
    const { baseline, subject } = await loadPair(
      { url: `${bare.baseUrl}/api-key/current`, headers: { 'X-API-Key': key }, ...bare },
      { url: `${svc.baseUrl}/api/api-key/current`, headers: { 'X-API-Key': key }, ...svc },
    );
    const healthz = await load(`${svc.baseUrl}/healthz`);
    if (subject.non2xx || baseline.non2xx) throw new Error(`${subject.non2xx} + ${baseline.non2xx} non-2xx answers from the key check`);
    return [
      {
        name: 'API-key authentication (GET /api/api-key/current)',
        subject,
        baseline,
        baselineLabel: 'bare Koa route (bench/baseline-server.ts), the key and its account in one indexed lookup',
        ratio: subject.reqPerSec / baseline.reqPerSec,
        command: 'npm run bench -- auth',
        cpu: { service: subject.cpu!, bare: baseline.cpu!, per: 'request' },
        notes:
          `The real route reads the key (by HMAC digest, not revoked) and its account in one statement, then adds the request log, request id, metrics, the pipeline and the envelope; ` +
          `last_used_at is written off the answer path. For scale: GET /healthz (no database) on the service answered ${healthz.reqPerSec.toLocaleString('en')} req/s in the same run (ratio to it ${(subject.reqPerSec / healthz.reqPerSec).toFixed(2)}).`,
      },
    ];
  } finally {
    await bare.stop();
    await svc.stop();
  }
}
