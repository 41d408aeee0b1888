import { performance } from 'node:perf_hooks';
import { mapLimit } from '../server/platform/concurrency';
import type { Boss } from '../server/platform/jobs';
import { DISPATCH_QUEUE, singletonKeyOf } from '../server/dispatch/service';
import { benchBoss, checkDispatched, describe, DESTINATION, DISPATCH_WORK_OPTIONS, dispatchedParts, dispatchShop, medianJobMs, rates, sendAndDrain, WINDOW_MS } from './dispatch';
import { Figure, median, startBenchSandbox, startBenchService } from './lib';

const PARTS = 500;
const LATENCY_MS = 50;

/**
 * The same dispatch with 50 ms added to every supplier call, against the floor that latency imposes: the supplier
 * calls of one dispatch made straight against the sandbox, one part after another, as many parts at once as the
 * dispatch worker runs.
 */
export async function dispatchLatencyBench(databaseUrl: string): Promise<Figure[]> {
  const sandbox = await startBenchSandbox();
  const svc = await startBenchService(databaseUrl, {}, { sandboxUrl: sandbox.baseUrl });
  let running = true;
  let boss: Boss | null = null;
  try {
    const shop = await dispatchShop(svc, sandbox, PARTS);
    boss = await benchBoss(svc.databaseUrl);
    await sandbox.control('POST', '/faults', { latencyMs: LATENCY_MS });

    // Baseline: per part, what doSend() asks of the supplier with automation `manual` and one item:
    // getProduct (one per distinct product of the part: here 1), findOrderByNumber, createOrder; in sequence.
    const concurrency = DISPATCH_WORK_OPTIONS.localConcurrency;
    const floorParts = shop.parts.map((p, i) => ({ supplierProductId: p.supplierProductId, number: `bench-floor-${i}` }));
    const variantOf = new Map<string, string>();
    for (const id of shop.supplierProductIds) {
      const product = await sandbox.v1<{ variants: Array<{ id: string }> }>(shop.liveKey, 'GET', `/products/${encodeURIComponent(id)}`);
      variantOf.set(id, product.variants[0].id);
    }
    const partMs: number[] = [];
    const b0 = performance.now();
    await mapLimit(floorParts, concurrency, async (p) => {
      const t = performance.now();
      await sandbox.v1(shop.liveKey, 'GET', `/products/${encodeURIComponent(p.supplierProductId)}`);
      const found = await sandbox.v1<{ items: unknown[] }>(shop.liveKey, 'GET', `/orders?orderNumber=${encodeURIComponent(p.number)}`);
      if (found.items.length) throw new Error(`floor: ${p.number} already exists`);
      await sandbox.v1(shop.liveKey, 'POST', '/orders', { orderNumber: p.number, items: [{ variantId: variantOf.get(p.supplierProductId)!, quantity: 1 }], destination: DESTINATION });
      partMs.push(performance.now() - t);
    });
    const baseMs = performance.now() - b0;

    // Subject: one dispatch job per queued part, from the first send until none is queued (or the window closes).
    const subj = await sendAndDrain(
      boss,
      DISPATCH_QUEUE,
      shop.parts.map((p) => ({ data: { supplierOrderId: p.id }, singletonKey: singletonKeyOf(p) })),
      () => dispatchedParts(svc.db, shop),
      WINDOW_MS,
      'dispatch',
    );
    await boss.stop({ graceful: false });
    boss = null;
    const job = await medianJobMs(svc.db, DISPATCH_QUEUE, shop.parts.map(singletonKeyOf));
    running = false;
    await svc.stop();
    await sandbox.control('DELETE', '/faults');
    const dispatched = await checkDispatched(svc.databaseUrl, sandbox, shop);

    const subject = rates(subj).overall;
    const after = rates(subj).after;
    const baseline = PARTS / (baseMs / 1000);
    const floorPart = median(partMs);
    return [
      {
        name: `Dispatch of ${PARTS.toLocaleString('en')} order parts, supplier latency +${LATENCY_MS} ms per call`,
        subject: { value: Number(subject.toFixed(1)), unit: `parts/s (${subj.done.toLocaleString('en')} in ${(subj.ms / 1000).toFixed(1)} s)` },
        baseline: { value: Number(baseline.toFixed(1)), unit: `parts/s (${(baseMs / 1000).toFixed(1)} s)` },
        baselineLabel: `the 3 supplier calls of one dispatch (product read, look-up by number, create) straight against the sandbox, ${concurrency} parts at a time`,
        ratio: subject / baseline,
        command: 'npm run bench -- dispatch-latency',
        notes:
          `Ratio = parts dispatched per second ÷ the floor set by the supplier's latency at the dispatch worker's concurrency (${concurrency}); 1 would mean the service adds nothing to the supplier's own time. ` +
          `Subject: ${describe(subj, 'parts')}; measured until none was queued or ${WINDOW_MS / 1000} s had passed. ` +
          (subj.done < PARTS
            ? `**Not drained within the window**: ${(PARTS - subj.done).toLocaleString('en')} parts still queued${after ? `, about ${Math.round((PARTS - subj.done) / after / 60)} min more at the rate after the last send` : ''}. After each job every worker sleeps its poll interval (${DISPATCH_WORK_OPTIONS.notifyPollingIntervalSeconds} s with notify on) unless a new job was sent meanwhile (no burst mode), so once the sends stop the ${concurrency} workers manage about ${concurrency} parts per ${DISPATCH_WORK_OPTIONS.notifyPollingIntervalSeconds} s, whatever the supplier's latency. `
            : '') +
          `Same set-up as the dispatch benchmark (seeded \`queued\` parts, one job each sent by the benchmark), with ${LATENCY_MS} ms added by the sandbox before every /v1 call; ${PARTS} parts to keep the run short. Baseline parts use their own order numbers. ` +
          `Checked after the service stopped: the ${dispatched.toLocaleString('en')} dispatched parts are \`submitted\` with exactly one sandbox order per supplier order number, the others none.`,
      },
      {
        name: `One dispatch job, supplier latency +${LATENCY_MS} ms per call (median)`,
        subject: { value: Math.round(job.ms), unit: `ms (median of ${job.jobs.toLocaleString('en')} jobs)` },
        baseline: { value: Math.round(floorPart), unit: `ms (median of ${partMs.length.toLocaleString('en')})` },
        baselineLabel: 'one part\'s 3 supplier calls in sequence, straight against the sandbox (same run, same concurrency)',
        ratio: job.ms / floorPart,
        command: 'npm run bench -- dispatch-latency',
        notes:
          `Ratio = one dispatch job's time from start to completion (pg-boss's started_on → completed_on for the parts above) ÷ one floor part's time; what the service adds per part, free of the queue's polling gaps. ` +
          `The job reads the records, runs the pre-checks, makes the same 3 supplier calls and writes the result (status move, event, order part, store order status) in its own transactions.`,
      },
    ];
  } finally {
    if (boss) await boss.stop({ graceful: false }).catch(() => undefined);
    if (running) await svc.stop();
    await sandbox.close();
  }
}
