/** The dispatch benchmark's second figure (bench/dispatch.ts): dispatch under supplier latency, against the supplier's own floor. */
import type { Figure } from './lib';
import { DISPATCH_QUEUE } from '../server/dispatch/queues';
import { checkOnce, command, type Ctx, drain, partsOf, queueParts, sentOf, shops, supplierFloor } from './dispatch-shop';

const f1 = (x: number) => Number(x.toFixed(1));

/** 2. 2,000 parts over 20 connections, 50 ms and 500 ms per supplier call, against the supplier's own floor. */
export async function underLatency({ svc, sandbox, boss, key }: Ctx): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const latency of [50, 500]) {
    const twenty = await shops(svc, sandbox, 20, 100, { key });
    await sandbox.control('POST', '/faults', { latencyMs: latency });
    const floor = await supplierFloor(sandbox, twenty[0], latency >= 500 ? 800 : 2000, 400);
    await queueParts(boss, svc.db, DISPATCH_QUEUE, partsOf(twenty));
    const run = await drain(sentOf(svc.db, twenty), 2000);
    await sandbox.control('DELETE', '/faults');
    const sent = await checkOnce(svc.db, sandbox, twenty);
    figures.push({
      name: `Dispatch of 2,000 order parts over 20 connections, ${latency} ms per supplier call`,
      subject: { value: f1(run.perSecond), unit: `parts/s (${run.done.toLocaleString('en')} in ${(run.ms / 1000).toFixed(1)} s)` },
      baseline: { value: f1(floor), unit: 'parts/s' },
      baselineLabel: "the same 3 calls per part straight against the sandbox, 400 parts at a time (the service's slots: 20 connections × 20)",
      ratio: run.perSecond / floor,
      command,
      notes: `Goal ≥ ${latency >= 500 ? 100 : 200} parts/s. The sandbox adds ${latency} ms before every call; each connection may run 20 dispatch jobs at once (the sandbox's declared limit), the process 400. ${sent.toLocaleString('en')} parts sent, each exactly once.`,
    });
  }
  return figures;
}
