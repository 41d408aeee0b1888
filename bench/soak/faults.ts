/**
 * The faults, on a schedule. Process kills and database restarts come in cycles over the first half of the run (so
 * the second half measures memory and connections after them, on processes that are no longer being replaced);
 * supplier and payment-provider faults come every few seconds over the whole run. Every fault is injected the way it
 * happens to a deployment: SIGKILL of one process, a Postgres fast shutdown (sessions cut), a supplier's own
 * control API making it slow, silent, failing or refusing.
 */
import { control, sleep } from './api';
import type { Deployment } from './deployments';
import { type FailoverKind, PatroniCluster } from './patroni';
import type { Suppliers } from './programs';
import { deliveryException } from './claims';

export type FaultKind =
  | 'kill api'
  | 'kill worker'
  | 'kill embedded service'
  | 'postgres restart'
  | 'postgres 30 s outage'
  | 'postgres failover'
  | 'embedded postgres restart'
  | 'embedded postgres 30 s outage'
  | 'supplier latency'
  | 'supplier time-out'
  | 'supplier 5xx'
  | 'supplier refusal'
  | 'supplier account outage'
  | 'provider capture fault'
  | 'supplier delivery exception';

interface Planned {
  at: number;
  kind: FaultKind;
}

/** Offsets (s) in one cycle of process and database faults; a cycle takes about 70 s and is spread over the first half. */
const CYCLE: Array<[number, FaultKind]> = [
  [0, 'kill api'],
  [3, 'postgres restart'],
  [6, 'embedded postgres restart'],
  [10, 'kill worker'],
  [14, 'postgres 30 s outage'],
  [18, 'kill embedded service'],
  [30, 'embedded postgres 30 s outage'],
  [40, 'postgres failover'],
  [50, 'kill worker'],
  [64, 'kill api'],
];

/**
 * A run too short for a whole cycle in its first half (CI's, under 3 minutes) gets each kind once, in about 40 s:
 * the outages first, so the database is back and every process restarted before the last half, which judges memory
 * and connections.
 */
const SHORT_CYCLE: Array<[number, FaultKind]> = [
  [0, 'postgres 30 s outage'],
  [1, 'embedded postgres 30 s outage'],
  [33, 'postgres restart'],
  [34, 'embedded postgres restart'],
  [37, 'kill api'],
  [38, 'kill embedded service'],
  [40, 'kill worker'],
];

const SUPPLIER_KINDS: FaultKind[] = [
  'supplier latency',
  'supplier time-out',
  'supplier 5xx',
  'supplier refusal',
  'supplier account outage',
  'provider capture fault',
];

function shuffled<T>(xs: T[], random: () => number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export function plan(durationMs: number, databases: Array<'own' | 'embedded'>, random: () => number): Planned[] {
  const short = durationMs / 2 - Math.max(15000, durationMs * 0.08) < 70000;
  const from = short ? 10000 : Math.max(15000, durationMs * 0.08);
  const window = durationMs / 2 - from;
  const cycles = short ? 1 : Math.ceil(window / 180000);
  const spacing = window / cycles;
  const planned: Planned[] = [];
  for (let c = 0; c < cycles; c++) {
    for (const [offset, kind] of short ? SHORT_CYCLE : CYCLE) {
      const own = !/embedded/.test(kind);
      if ((own && databases.includes('own')) || (!own && databases.includes('embedded'))) planned.push({ at: from + c * spacing + offset * 1000, kind });
    }
  }
  // Parcels in a carrier's exception (issue 54), once a third in and every two minutes after: shipped orders are needed.
  for (let at = Math.min(30000, durationMs / 3); at < durationMs - 20000; at += 120000) planned.push({ at, kind: 'supplier delivery exception' });
  // Drawn from a shuffled deck, not one by one: every kind comes once in each six, so a short run sees them all. None
  // starts in the last 20 s: a window under way (15 s at most) ends with the load, and settling starts at once.
  let deck: FaultKind[] = [];
  for (let at = 8000; at < durationMs - 20000; at += 6000 + Math.floor(random() * 8000)) {
    if (!deck.length) deck = shuffled(SUPPLIER_KINDS, random);
    planned.push({ at, kind: deck.pop() as FaultKind });
  }
  return planned.sort((a, b) => a.at - b.at);
}

export class Faults {
  readonly injected = new Map<FaultKind, number>();
  /** Faults still under way (an outage being waited out, a latency window): awaited before the settle phase. */
  private readonly running = new Set<Promise<void>>();
  /**
   * One database fault at a time per deployment: a restart that waited for a killed process to come back could
   * otherwise run into the next outage, which would then start a second server beside the first (the 30-minute run
   * of 2026-11-26 lost its later restarts of the own Postgres to exactly that). A fault that waits here is late.
   */
  private readonly databaseTurn = new Map<string, Promise<unknown>>();
  readonly log: string[] = [];

  constructor(
    private readonly s: Suppliers,
    private readonly deployments: Deployment[],
    private readonly accounts: () => string[],
    private readonly random: () => number,
  ) {}

  private deployment(name: 'own' | 'embedded'): Deployment | undefined {
    return this.deployments.find((d) => d.name === name);
  }

  /** Injects one fault now; what takes time (an outage, a latency window) goes on in the background. */
  inject(kind: FaultKind, at: number): void {
    const work = this.run(kind).then(
      (what) => {
        this.injected.set(kind, (this.injected.get(kind) ?? 0) + 1);
        this.log.push(`${Math.round(at / 1000)}s ${kind}: ${what}`);
      },
      (err: unknown) => {
        this.log.push(`${Math.round(at / 1000)}s ${kind}: could not be injected: ${err instanceof Error ? err.message : String(err)}`);
      },
    );
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }

  async drain(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running]);
  }

  /** Every supplier's and the provider's fault set cleared (count-based faults may still be waiting to be used up). */
  async clear(): Promise<void> {
    await control(this.s.sandbox.control, 'DELETE', '/faults');
    await control(this.s.cj.control, 'DELETE', '/faults');
    await control(this.s.aliexpress.control, 'DELETE', '/faults');
    await control(this.s.payments.control, 'DELETE', '/faults');
  }

  private pick<T>(xs: T[]): T {
    return xs[Math.floor(this.random() * xs.length)];
  }

  private async run(kind: FaultKind): Promise<string> {
    const own = this.deployment('own');
    const embedded = this.deployment('embedded');
    const s = this.s;
    switch (kind) {
      case 'kill api':
      case 'kill worker': {
        const p = this.pick(own!.processes.filter((x) => x.role === kind.slice(5)));
        const pid = p.pid;
        p.kill();
        return `SIGKILL ${p.name} (pid ${pid})`;
      }
      case 'kill embedded service': {
        const p = embedded!.processes[0];
        const pid = p.pid;
        p.kill();
        return `SIGKILL the embedded service (pid ${pid}); its watcher stops its Postgres, the restart starts it again`;
      }
      case 'postgres restart':
      case 'embedded postgres restart':
      case 'postgres 30 s outage':
      case 'embedded postgres 30 s outage': {
        const d = kind.startsWith('embedded') ? embedded! : own!;
        const outage = kind.endsWith('outage') ? 30000 : 0;
        const turn = (this.databaseTurn.get(d.name) ?? Promise.resolve()).then(async () => {
          // Not while a process is still starting (the embedded service starts its Postgres itself).
          for (const p of d.processes) await p.untilReady(120000);
          await d.database.stop();
          await sleep(outage);
          await d.database.start();
        });
        this.databaseTurn.set(
          d.name,
          turn.catch(() => undefined),
        );
        await turn;
        return outage ? 'fast shutdown, started again 30 s later' : 'fast shutdown, started again at once';
      }
      case 'postgres failover': {
        const d = own!;
        if (!(d.database instanceof PatroniCluster))
          throw new Error('the own database is no Patroni cluster (Patroni, etcd, HAProxy, PgBouncer not installed)');
        const cluster = d.database;
        // The leader's machine dies, its Patroni alone dies, or it is cut off (frozen), in turn: Patroni decides.
        const how: FailoverKind = (['node', 'patroni', 'freeze'] as const)[cluster.failovers % 3];
        const turn = (this.databaseTurn.get(d.name) ?? Promise.resolve()).then(async () => {
          for (const p of d.processes) await p.untilReady(120000);
          return cluster.failover(how);
        });
        this.databaseTurn.set(
          d.name,
          turn.catch(() => undefined),
        );
        const r = await turn;
        return `${how}: leader ${r.from} failed, Patroni elected ${r.to} in ${r.seconds.toFixed(1)} s (${r.lostWalBytes} bytes of WAL lost), ${r.from} rejoined as a replica`;
      }
      case 'supplier latency': {
        const [where, url] = this.pick([
          ['sandbox', s.sandbox.control],
          ['CJ', s.cj.control],
        ]);
        await control(url, 'POST', '/faults', { latencyMs: 2500 });
        await sleep(15000);
        await control(url, 'POST', '/faults', { latencyMs: 0 });
        return `${where}: 2.5 s on every call for 15 s`;
      }
      case 'supplier time-out': {
        const [where, url] = this.pick([
          ['sandbox', s.sandbox.control],
          ['CJ', s.cj.control],
          ['AliExpress', s.aliexpress.control],
        ]);
        await control(url, 'POST', '/faults', { timeoutAfterCreateNext: 1 });
        return `${where}: the next create succeeds and never answers`;
      }
      case 'supplier 5xx': {
        const where = this.pick(['sandbox', 'CJ', 'AliExpress']);
        if (where === 'sandbox') await control(s.sandbox.control, 'POST', '/faults', { failNext: 4 });
        else if (where === 'CJ') await control(s.cj.control, 'POST', '/faults', { failNext: { path: '*', code: 1600500, httpStatus: 502, count: 3 } });
        else {
          await control(s.aliexpress.control, 'POST', '/faults', { unavailable: true });
          await sleep(8000);
          await control(s.aliexpress.control, 'POST', '/faults', { unavailable: false });
        }
        return where === 'AliExpress' ? 'AliExpress: HTTP 503 on every call for 8 s' : `${where}: the next calls answer 5xx`;
      }
      case 'supplier refusal': {
        if (this.random() < 0.5) {
          await control(s.sandbox.control, 'POST', '/faults', { refuseNext: { count: 1, message: 'Soak: the warehouse refused this order' } });
          return 'sandbox: the next create is refused';
        }
        await control(s.aliexpress.control, 'POST', '/faults', {
          failNext: [{ method: 'aliexpress.ds.order.create', code: 'BLACKLIST_BUYER_IN_LIST', inResult: true, count: 1 }],
        });
        return 'AliExpress: the next create is refused';
      }
      case 'supplier account outage': {
        const account = this.pick(this.accounts());
        await control(s.sandbox.control, 'POST', '/faults', { unavailableAccounts: [account] });
        await sleep(10000);
        await control(s.sandbox.control, 'POST', '/faults', { unavailableAccounts: [] });
        return `sandbox: account ${account} answers 503 for 10 s`;
      }
      case 'supplier delivery exception':
        return deliveryException(s, this.random);
      case 'provider capture fault': {
        const body = this.pick([{ unavailable: { count: 2 } }, { loseAnswer: { count: 1 } }, { refuseCapture: { count: 1, mode: 'answer' } }]);
        await control(s.payments.control, 'POST', '/faults', body);
        return `payment provider: ${Object.keys(body)[0]} on the next capture`;
      }
    }
  }
}
