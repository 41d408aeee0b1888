/**
 * What a run reports: one summary line (`soak: N minutes, N faults (…by kind), N invariants held, N broken`), every
 * broken invariant's records on stderr, the results file CI counts (`{ passed, failed, skipped }`, one per
 * invariant), and a row of the table in docs/reliability.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FaultKind } from './faults';
import type { Verdict } from './invariants/verdict';
import { ROOT } from './programs';
import type { Settled } from './settle';

export interface RunReport {
  minutes: number;
  databases: string[];
  stores: number;
  faults: Map<FaultKind, number>;
  verdicts: Verdict[];
  settled: Settled;
  load: string;
  startedAt: Date;
  /** What the rerouting load asked for and what became of it, for the summary line. */
  reroutes?: string;
}

export const faultsByKind = (faults: Map<FaultKind, number>): string =>
  [...faults]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');

export function summaryLine(r: RunReport): string {
  const total = [...r.faults.values()].reduce((a, b) => a + b, 0);
  const held = r.verdicts.filter((v) => v.held).length;
  return `soak: ${r.minutes} minutes, ${total} faults (${faultsByKind(r.faults)}), ${r.reroutes ? `${r.reroutes}, ` : ''}${held} invariants held, ${r.verdicts.length - held} broken`;
}

export function writeResults(file: string, verdicts: Verdict[], extra: Record<string, unknown> = {}): void {
  const full = path.resolve(ROOT, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  const held = verdicts.filter((v) => v.held).length;
  const body = {
    passed: held,
    failed: verdicts.length - held,
    skipped: 0,
    invariants: verdicts.map((v) => ({ name: v.name, held: v.held, checked: v.checked, failures: v.failures })),
    ...extra,
  };
  fs.writeFileSync(full, `${JSON.stringify(body, null, 2)}\n`);
}

const START = '<!-- soak runs: rows added by npm run soak, newest first -->';
const END = '<!-- end of soak runs -->';

export function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

/** Adds the run as the table's first row in docs/reliability.md. */
export function recordRun(r: RunReport): void {
  const file = path.join(ROOT, 'docs/reliability.md');
  const text = fs.readFileSync(file, 'utf8');
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  if (from < 0 || to < from) throw new Error(`docs/reliability.md has no table between "${START}" and "${END}"`);
  const lines = text
    .slice(from + START.length, to)
    .trim()
    .split('\n')
    .filter((l) => l.trim());
  const header = lines.slice(0, 2);
  const rows = lines.slice(2);
  const held = r.verdicts.filter((v) => v.held).length;
  const broken = r.verdicts.filter((v) => !v.held).map((v) => v.name);
  const cell = (s: string) => s.replace(/\|/g, '/');
  const row = [
    r.startedAt.toISOString().slice(0, 16).replace('T', ' '),
    `${r.minutes} + ${r.settled.seconds} s settle${r.settled.drained ? '' : ' (bound reached)'}`,
    `${r.databases.join(' + ')}; ${r.stores} stores`,
    cell(r.reroutes ? `${r.load}, ${r.reroutes}` : r.load),
    `${[...r.faults.values()].reduce((a, b) => a + b, 0)}: ${faultsByKind(r.faults)}`,
    `${held} held, ${r.verdicts.length - held} broken${broken.length ? ` (${broken.join('; ')})` : ''}`,
    `${machine()}, shared with other engineers' work`,
  ];
  const table = [...header, `| ${row.map(cell).join(' | ')} |`, ...rows].join('\n');
  fs.writeFileSync(file, `${text.slice(0, from + START.length)}\n${table}\n${text.slice(to)}`);
}
