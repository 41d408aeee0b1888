/**
 * RSS and open connections flat over the last half of the run (no leak).
 *
 * Memory: for each service process alive through the last half (a process restarted in it is judged from 60 s
 * after its start, and needs 6 samples), the lowest sample of the last third may be at most 20 % or 32 MB (whichever
 * is more) above the highest sample of the first third. A process's resident memory is a sawtooth: V8 lets the heap
 * grow by 50 to 100 MB between major collections (every two or three minutes here) and gives it back late, and
 * caches fill while a process warms up. Medians or single samples taken on a tooth's way up look like growth; a
 * leak is memory that collections cannot give back, so it lifts the whole sawtooth until even its lowest late
 * samples stand above its highest early ones. That lets the sawtooth pass and catches a leak that outgrows it within
 * half a run: in the 30-minute run, about 15 MB a minute (the sawtooth's height and the margin, over the ten
 * minutes between the thirds); a slower one needs a longer run.
 *
 * Connections: each deployment's connections (pg_stat_activity) stay under what its processes may open (pool, pg-boss
 * and LISTEN per process), and the largest count in the last third is at most 5 above the largest in the first
 * third: pools open and close connections with demand (idle ones close after 10 s), so the count moves, but after
 * the faults it must come back within the same bounds, not climb.
 */
import { CONNECTIONS_PER_PROCESS } from '../config';
import type { Deployment } from '../deployments';
import type { Sample, Series } from '../monitor';
import { Verdict, verdict } from './verdict';

const thirds = (samples: Sample[]) => {
  const n = Math.floor(samples.length / 3);
  return [samples.slice(0, n).map((s) => s.value), samples.slice(samples.length - n).map((s) => s.value)];
};
const mb = (x: number) => `${Math.round(x)} MB`;

export function rssFlat(series: Series[], half: { from: number; to: number }): Verdict {
  const failures: string[] = [];
  const judged: string[] = [];
  for (const s of series.filter((x) => x.kind === 'rss')) {
    const first = s.samples[0]?.at ?? 0;
    const window = s.samples.filter((x) => x.at >= Math.max(half.from, first + 60000) && x.at <= half.to);
    if (window.length < 6) continue;
    const [firstThird, lastThird] = thirds(window);
    const early = Math.max(...firstThird);
    const late = Math.min(...lastThird);
    const allowed = Math.max(early * 0.2, 32);
    judged.push(`${s.name} at most ${mb(early)} early, at least ${mb(late)} late`);
    if (late - early > allowed) {
      failures.push(
        `${s.name} (pid ${s.pid}) grew: its lowest sample in the last third of the last half is ${mb(late)}, its highest in the first third ${mb(early)} (${mb(allowed)} allowed), of ${window.length} samples: ${window.map((x) => Math.round(x.value)).join(' ')}`,
      );
    }
  }
  if (!judged.length) failures.push('no process had enough samples over the last half of the run to judge');
  return verdict('RSS flat over the last half', judged.join(', '), failures);
}

export function connectionsFlat(series: Series[], deployments: Deployment[], half: { from: number; to: number }): Verdict {
  const failures: string[] = [];
  const judged: string[] = [];
  for (const d of deployments) {
    const ceiling = d.processes.length * CONNECTIONS_PER_PROCESS;
    const window = series
      .filter((x) => x.kind === 'connections' && x.name === d.name)
      .flatMap((x) => x.samples)
      .filter((x) => x.at >= half.from && x.at <= half.to);
    if (window.length < 6) {
      failures.push(`${d.name}: only ${window.length} samples of its connections over the last half`);
      continue;
    }
    const [early, late] = thirds(window).map((xs) => Math.max(...xs));
    const most = Math.max(...window.map((x) => x.value));
    judged.push(`${d.name} at most ${early} → ${late} (ceiling ${ceiling})`);
    const top = window.find((x) => x.value === most);
    if (most > ceiling)
      failures.push(
        `${d.name} had ${most} connections open${top?.detail ? ` (${top.detail})` : ''}, above the ${ceiling} its ${d.processes.length} processes may open: ${window.map((x) => x.value).join(' ')}`,
      );
    if (late > early + 5)
      failures.push(
        `${d.name}'s connections climbed: at most ${early} in the first third of the last half, ${late} in the last third: ${window.map((x) => x.value).join(' ')}`,
      );
  }
  return verdict('open connections flat over the last half', judged.join(', '), failures);
}
