/**
 * `npm run bench [-- name ...]`: runs the benchmarks and writes docs/benchmarks.md.
 * Every figure is a ratio against a baseline measured in the same run on the same machine.
 */
import fs from 'node:fs';
import path from 'node:path';
import { authOverhead } from './auth-overhead';
import { dispatchBench } from './dispatch';
import { dispatchAgainst } from './dispatch-against';
import { dispatchCluster } from './dispatch-cluster';
import { dispatchGuardBench } from './dispatch-guard';
import { eventsBench } from './events';
import { importBench } from './import';
import { stopCountingStatements } from './cpu';
import { cpuSection } from './cpu-report';
import { benchDatabase, Figure, freshDatabase, machine, watchServiceMemory } from './lib';
import { CONNECTIONS, DURATION_SECONDS, Load } from './load';
import { notifications } from './notifications';
import { ordersListBench } from './orders-list';
import { productsPage } from './products-page';
import { scalingBench } from './scaling';
import { syncBench } from './sync';

const BENCHMARKS: Record<string, (databaseUrl: string) => Promise<Figure[]>> = {
  auth: authOverhead,
  products: productsPage,
  notifications,
  import: importBench,
  sync: syncBench,
  dispatch: dispatchBench,
  'dispatch-guard': dispatchGuardBench,
  'orders-list': ordersListBench,
  scaling: scalingBench,
  events: eventsBench,
};
/** Run only when named: this build against other commits' builds, each built first (minutes the first time). */
const BY_NAME_ONLY: typeof BENCHMARKS = { 'dispatch-against': dispatchAgainst, 'dispatch-cluster': dispatchCluster };

function fmt(x: Load | { value: number; unit: string }): string {
  if ('reqPerSec' in x) return `${x.reqPerSec.toLocaleString('en')} req/s, p50 ${x.p50} ms, p99 ${x.p99} ms`;
  return `${x.value.toLocaleString('en', { maximumFractionDigits: 2 })} ${x.unit}`;
}

const row = (f: Figure) =>
  `| ${f.name} | ${fmt(f.subject)} | ${f.baselineLabel}: ${fmt(f.baseline)} | ${f.ratio.toFixed(2)} | ${f.rssMb ?? '–'} MB | \`${f.command}\` |`;
const note = (f: Figure) => `- **${f.name}**: ${f.notes}`;
const section = (f: Figure) =>
  f.section ? [`<!-- section ${f.section.id} -->`, `## ${f.section.title}`, '', ...f.section.lines, `<!-- /section ${f.section.id} -->`, ''] : [];

/**
 * The file with these figures' rows, notes and sections replaced (or added), every other line as it was: a run of
 * one benchmark (BENCH_UPDATE=1) updates its own figures without a full run. Each replaced note says when.
 */
function updated(text: string, figures: Figure[]): string {
  let lines = text.split('\n');
  const at = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const put = (prefix: string, line: string, after: (l: string) => boolean) => {
    const i = lines.findIndex((l) => l.startsWith(prefix));
    if (i >= 0) lines[i] = line;
    // A new figure goes after the last of its kind in the figures' part (before the first section), not in the CPU table at the end.
    else {
      const end = lines.findIndex((l) => l.startsWith('## '));
      lines.splice(lines.map((l, k) => (after(l) && (end < 0 || k < end) ? k : -1)).reduce((a, b) => Math.max(a, b), -1) + 1, 0, line);
    }
  };
  for (const f of figures) {
    put(`| ${f.name} |`, row(f), (l) => l.startsWith('| ') && !l.startsWith('| Figure'));
    if (f.notes) put(`- **${f.name}**:`, note({ ...f, notes: `${f.notes} (Measured ${at} UTC by \`${f.command}\` alone.)` }), (l) => l.startsWith('- **'));
    if (!f.section) continue;
    const [open, close] = [`<!-- section ${f.section.id} -->`, `<!-- /section ${f.section.id} -->`];
    const [i, j] = [lines.indexOf(open), lines.indexOf(close)];
    const rerun = lines.findIndex((l) => l.startsWith('## CPU per unit of work') || l.startsWith('Re-run with'));
    const body = section(f).slice(0, -1);
    lines = i >= 0 && j > i ? [...lines.slice(0, i), ...body, ...lines.slice(j + 1)] : [...lines.slice(0, rerun), ...body, '', ...lines.slice(rerun)];
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const chosen = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const names = chosen.length ? chosen : Object.keys(BENCHMARKS);
  const all = { ...BENCHMARKS, ...BY_NAME_ONLY };
  for (const n of names) if (!all[n]) throw new Error(`Unknown benchmark ${n}; known: ${Object.keys(all).join(', ')}`);
  const pg = await benchDatabase();
  const figures: Figure[] = [];
  try {
    for (const name of names) {
      process.stderr.write(`bench: ${name}\n`);
      const memory = watchServiceMemory();
      const got = await all[name](await freshDatabase(pg.adminUrl, name));
      const peak = memory.stop();
      figures.push(...got.map((f) => ({ ...f, rssMb: f.rssMb ?? peak })));
    }
  } finally {
    await stopCountingStatements();
    await pg.stop();
  }
  const lines = [
    '# Benchmarks',
    '',
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}.`,
    `Load: autocannon, ${CONNECTIONS} connections, ${DURATION_SECONDS} s per measurement, from the benchmark process to the service on loopback; where a figure compares two routes they run in alternating rounds (A B B A), each ${DURATION_SECONDS} s in all. Bare baseline routes run in their own process (bench/baseline-server.ts), never in the service. Timed figures (ms, links/s) are wall-clock from the benchmark process.`,
    'Database: a fresh embedded PostgreSQL 18 per run (or `DATABASE_URL`). Each ratio is subject ÷ baseline, both measured in this run.',
    '',
    'Service RSS: the peak resident memory of any service process during that benchmark (seeding included), sampled every 200 ms from /proc.',
    '',
    '| Figure | Subject | Baseline | Ratio | Service RSS | Command |',
    '|---|---|---|---|---|---|',
    ...figures.map(row),
    '',
    ...figures.filter((f) => f.notes).map(note),
    '',
    ...figures.flatMap(section),
    ...cpuSection(figures),
    'Re-run with `npm run bench` (all) or `npm run bench -- <name>` (one of: ' +
      Object.keys(BENCHMARKS).join(', ') +
      '; and, only when named, ' +
      Object.keys(BY_NAME_ONLY).join(', ') +
      '). `BENCH_SECONDS` sets the duration.',
    '',
  ];
  const out = path.resolve(__dirname, '../../docs/benchmarks.md');
  if (chosen.length && fs.existsSync(out)) {
    process.stdout.write(lines.join('\n'));
    if (process.env.BENCH_UPDATE) {
      fs.writeFileSync(out, updated(fs.readFileSync(out, 'utf8'), figures));
      process.stderr.write('bench: a subset was run; its figures, notes and sections were replaced in docs/benchmarks.md, the rest left as it was.\n');
    } else
      process.stderr.write(
        'bench: a subset was run; docs/benchmarks.md left as it is (run without names to rewrite it, or set BENCH_UPDATE=1 to replace only these figures).\n',
      );
  } else {
    fs.writeFileSync(out, lines.join('\n'));
    process.stdout.write(lines.join('\n'));
  }
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
