/**
 * Samples, every 5 s, each service process's resident memory (VmRSS in /proc/<pid>/status) and each deployment's open
 * database connections (pg_stat_activity, the soak's own reading connections left out): the leak check reads them.
 */
import fs from 'node:fs';
import type { Deployment } from './deployments';

export interface Sample {
  at: number;
  value: number;
  /** Connections: how many each kind of client held (`store-suppliers 9, store-suppliers-jobs 5, …`). */
  detail?: string;
}

export interface Series {
  /** `own api`, `own worker 1`, `embedded` (memory) or `own`, `embedded` (connections). */
  name: string;
  kind: 'rss' | 'connections';
  /** The process sampled (memory); a restarted process starts a new series. */
  pid: number | null;
  samples: Sample[];
}

function rssMb(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

export class Monitor {
  readonly series: Series[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly deployments: Deployment[]) {}

  start(): void {
    const tick = () => {
      void this.sample().finally(() => {
        if (this.timer) this.timer = setTimeout(tick, 5000);
      });
    };
    this.timer = setTimeout(tick, 0);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private push(name: string, kind: Series['kind'], pid: number | null, value: number, detail?: string): void {
    let s = [...this.series].reverse().find((x) => x.name === name && x.kind === kind);
    if (!s || s.pid !== pid) {
      s = { name, kind, pid, samples: [] };
      this.series.push(s);
    }
    s.samples.push({ at: Date.now(), value, ...(detail ? { detail } : {}) });
  }

  private async sample(): Promise<void> {
    for (const d of this.deployments) {
      for (const p of d.processes) {
        const pid = p.pid;
        const rss = pid ? rssMb(pid) : null;
        if (pid && rss !== null) this.push(p.name, 'rss', pid, rss);
      }
      try {
        const r = await d.reader.query<{ app: string; n: number }>(
          `SELECT application_name AS app, count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name <> 'soak-reader' AND backend_type = 'client backend' GROUP BY 1 ORDER BY 1`,
          [d.databaseName],
        );
        this.push(
          d.name,
          'connections',
          null,
          r.rows.reduce((n, x) => n + x.n, 0),
          r.rows.map((x) => `${x.app || '(unnamed)'} ${x.n}`).join(', '),
        );
      } catch {
        /* the database is away (a fault): no sample */
      }
    }
  }
}
