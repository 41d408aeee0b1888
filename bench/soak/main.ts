/**
 * `npm run soak`: the service under mixed load and faults for SOAK_MINUTES (10), then a settle phase, then the
 * invariants, checked against the suppliers' and the payment provider's own records (docs/reliability.md).
 * It talks to the service only over HTTP and reads its database only to read (a read-only session); it talks to the
 * sandboxes and the supplier-format servers only through their APIs and control APIs. It imports nothing of the
 * service, so the service's code can move under it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sleep } from './api';
import { loadCatalogues } from './catalogues';
import { checkInvariants } from './check';
import { soakConfig } from './config';
import { Deployment, embeddedDeployment, ownDeployment } from './deployments';
import { Faults, plan } from './faults';
import { startLoad } from './load';
import { HeapSnapshot, pairs, takeHeapSnapshots } from './heap';
import { ManualDispatch } from './merchant';
import { Monitor } from './monitor';
import { ROOT, startSuppliers, Suppliers } from './programs';
import { seeded } from './receivers';
import { recordRun, RunReport, summaryLine, writeResults } from './report';
import { reroutingLoad } from './rerouting';
import { ClaimsLoad } from './claims';
import { settle } from './settle';
import { Shoppers } from './shoppers';
import { SupplierSide } from './supplier-side';
import { openStore, Store } from './world';

const say = (line: string) => process.stderr.write(`soak: ${line}\n`);

async function run(): Promise<number> {
  const cfg = soakConfig();
  const seed = Number(process.env.SOAK_SEED || Date.now() % 2 ** 31);
  const random = seeded(seed);
  const startedAt = new Date();
  const durationMs = cfg.minutes * 60000;
  let suppliers: Suppliers | null = null;
  const deployments: Deployment[] = [];
  const stores: Store[] = [];
  // Interrupted (Ctrl-C), it stops what it started: a Postgres or a service left behind would hold ports and files.
  const interrupted = () => {
    say('interrupted: stopping what it started');
    void stopAll().finally(() => process.exit(130));
  };
  const stopAll = async () => {
    for (const d of deployments) for (const p of d.processes) p.halt();
    for (const s of stores) for (const r of s.receivers) await r.stop();
    for (const d of deployments.splice(0)) await d.stop(cfg.keep).catch((e: unknown) => say(`stopping ${d.name}: ${String(e)}`));
    for (const p of suppliers?.programs.splice(0) ?? []) await p.stop();
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    say(`${cfg.minutes} minutes on ${cfg.databases.join(' and ')}, ${cfg.stores} stores, seed ${seed}; starting the suppliers and the service`);
    suppliers = await startSuppliers();
    if (cfg.databases.includes('own')) deployments.push(await ownDeployment(cfg, suppliers));
    if (cfg.databases.includes('embedded')) deployments.push(await embeddedDeployment(suppliers));
    const cats = await loadCatalogues(suppliers);
    for (let i = 0; i < cfg.stores; i++) stores.push(await openStore(i + 1, deployments[i % deployments.length], suppliers, cats, random));
    say(`${stores.length} stores open (${Math.round((Date.now() - startedAt.getTime()) / 1000)} s); load and faults for ${cfg.minutes} minutes`);

    const shoppers = new Shoppers(suppliers, random);
    const dispatch = new ManualDispatch(random);
    const side = new SupplierSide(suppliers, random);
    const monitor = new Monitor(deployments);
    const faults = new Faults(suppliers, deployments, () => stores.map((s) => s.accounts.sandbox), random);
    monitor.start();
    const t0 = Date.now();
    const loops = startLoad(stores, cats, shoppers, dispatch, side, random);
    const rerouting = reroutingLoad(stores, { suppliers, cats, shoppers, dispatch, random });
    const claims = new ClaimsLoad(stores, suppliers, random);
    const timers = plan(durationMs, cfg.databases, random).map((p) => setTimeout(() => faults.inject(p.kind, p.at), p.at));
    const heap: HeapSnapshot[] = [];
    const heapDir = cfg.heapSnapshots;
    const early = heapDir
      ? setTimeout(() => void takeHeapSnapshots(deployments, heapDir, 'early', Math.round(durationMs / 3000)).then((s) => heap.push(...s)), durationMs / 3)
      : null;
    const progress = setInterval(
      () =>
        say(`${Math.round((Date.now() - t0) / 1000)} s: ${shoppers.orders.length} orders, ${[...faults.injected.values()].reduce((a, b) => a + b, 0)} faults`),
      60000,
    );
    await sleep(durationMs);
    timers.forEach(clearTimeout);
    clearInterval(progress);
    rerouting.stop();
    claims.stop();
    await loops.stopBuying();
    monitor.stop();
    if (early) clearTimeout(early);
    if (heapDir) heap.push(...(await takeHeapSnapshots(deployments, heapDir, 'late', Math.round((Date.now() - t0) / 1000))));
    say(`load done: ${shoppers.orders.length} orders; waiting out the faults under way, then settling (at most ${cfg.settleSeconds} s)`);
    await faults.drain();
    await faults.clear();
    const settled = await settle(suppliers, stores, deployments, shoppers, dispatch, cfg.settleSeconds);
    await loops.stop();
    const verdicts = await checkInvariants({
      stores,
      deployments,
      suppliers,
      shoppers,
      dispatch,
      monitor,
      lastHalf: { from: t0 + durationMs / 2, to: t0 + durationMs },
      rerouting,
      claims,
    });

    const loadLine = `${shoppers.orders.length} orders (${shoppers.orders.filter((o) => o.contractModel === 'promiseToSell').length} promise-to-sell), ${dispatch.submitted} parts sent by hand, ${loops.imports} imports, ${loops.syncs} link syncs, ${loops.switchedOn} connections switched on again, ${stores.reduce((n, s) => n + s.receivers.reduce((m, r) => m + r.deliveries.length, 0), 0)} event deliveries`;
    const report: RunReport = {
      minutes: cfg.minutes,
      databases: cfg.databases,
      stores: stores.length,
      faults: faults.injected,
      verdicts,
      settled,
      load: loadLine,
      startedAt,
    };
    report.reroutes = rerouting.summary();
    for (const line of faults.log) say(`fault at ${line}`);
    for (const [k, n] of loops.errors) say(`load error ×${n}: ${k}`);
    for (const d of deployments)
      for (const p of d.processes)
        say(
          `${p.name}: ${p.incarnations.length} starts (${p.incarnations.map((x) => x.end ?? 'running').join(', ')}); warnings: ${[...p.warnings].map(([m, n]) => `${m} ×${n}`).join('; ') || 'none'}`,
        );
    for (const h of heap) say(`heap snapshot ${h.label} of ${h.process} (pid ${h.pid}) at ${h.at} s, VmRSS ${h.rssMb} MB: ${h.file} (${h.megabytes} MB)`);
    for (const [a, b] of pairs(heap)) say(`what grew in ${a.process}: node --max-old-space-size=8192 dist/bench/soak/heap-diff.js ${a.file} ${b.file}`);
    say(`load: ${loadLine}; settled in ${settled.seconds} s${settled.drained ? '' : `, bound reached with ${settled.left.join('; ')}`}`);
    for (const v of verdicts) {
      say(`${v.held ? 'held  ' : 'BROKEN'} ${v.name}: ${v.checked}`);
      for (const f of v.failures) say(`  ${f}`);
    }
    const samples = monitor.series.map((x) => ({
      name: x.name,
      kind: x.kind,
      pid: x.pid,
      values: x.samples.map((v) => [Math.round((v.at - t0) / 1000), Math.round(v.value)]),
    }));
    writeResults(cfg.resultsFile, verdicts, {
      summary: summaryLine(report),
      seed,
      faults: Object.fromEntries(faults.injected),
      faultLog: faults.log,
      samples,
      heapSnapshots: heap,
    });
    if (cfg.record) recordRun(report);
    process.stdout.write(`${summaryLine(report)}\n`);
    return verdicts.every((v) => v.held) ? 0 : 1;
  } catch (err) {
    const why = err instanceof Error ? (err.stack ?? err.message) : String(err);
    say(`could not run: ${why}`);
    for (const d of deployments) for (const p of d.processes) say(`${p.name} said last:\n${p.complaints.slice(-10).join('\n')}`);
    writeResults(cfg.resultsFile, [{ name: 'the soak ran', held: false, checked: 'set-up and run', failures: [why] }]);
    return 1;
  } finally {
    await stopAll();
  }
}

if (!fs.existsSync(path.join(ROOT, 'dist/server/main.js'))) {
  say('dist/server/main.js is not built: run it as npm run soak');
  process.exit(2);
}
run().then(
  (code) => process.exit(code),
  (err: unknown) => {
    say(String(err));
    process.exit(1);
  },
);
