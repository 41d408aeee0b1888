/**
 * Named fault points for drills: a process started with FAILPOINTS=<name>[,<name>...] kills itself with SIGKILL when
 * it reaches one, exactly as a power cut would; `<name>=throw` throws there instead (a bug at that spot). Unset
 * (always, outside the drills), it does nothing.
 *
 * FAILPOINTS_LOG=<file> makes every crossing of a named point a line in that file (`<name> <subject> <pid> <action>`),
 * written before the point acts: a drill then asserts that each part crossed the step and that a worker died there,
 * not how many deaths one batch happened to produce.
 */
import { appendFileSync } from 'node:fs';

const armed = new Map(
  (process.env.FAILPOINTS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => [s.split('=')[0], s.split('=')[1] === 'throw' ? 'throw' : 'kill'] as const),
);
const crossings = process.env.FAILPOINTS_LOG;

export function failpoint(name: string, subject = '-'): void {
  const action = armed.size ? armed.get(name) : undefined;
  if (crossings) appendFileSync(crossings, `${name} ${subject} ${process.pid} ${action ?? 'pass'}\n`);
  if (action === 'kill') process.kill(process.pid, 'SIGKILL');
  if (action === 'throw') throw new Error(`failpoint ${name}`);
}
