import { developerKey, Figure, load, startBenchService } from './lib';

/** API-key authentication: GET /api/api-key/current against the unauthenticated /healthz of the same server. */
export async function authOverhead(databaseUrl: string): Promise<Figure[]> {
  const svc = await startBenchService(databaseUrl);
  try {
    const { key } = await developerKey(svc.baseUrl);
    const baseline = await load(`${svc.baseUrl}/healthz`);
    const subject = await load(`${svc.baseUrl}/api/api-key/current`, { 'X-API-Key': key });
    if (subject.non2xx) throw new Error(`${subject.non2xx} non-2xx answers from /api/api-key/current`);
    return [
      {
        name: 'API-key authentication (GET /api/api-key/current)',
        subject,
        baseline,
        baselineLabel: 'GET /healthz (unauthenticated Koa route, same server)',
        ratio: subject.reqPerSec / baseline.reqPerSec,
        command: 'npm run bench -- auth',
        notes: 'Each keyed request does one indexed key lookup (HMAC digest) plus the account read of the answer.',
      },
    ];
  } finally {
    await svc.stop();
  }
}
