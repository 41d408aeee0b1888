/**
 * Named fault points for drills: a process started with FAILPOINTS=<name>[,<name>...] kills itself with SIGKILL when
 * it reaches one, exactly as a power cut would; `<name>=throw` throws there instead (a bug at that spot). Unset
 * (always, outside the drills), it does nothing.
 */
const armed = new Map(
  (process.env.FAILPOINTS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => [s.split('=')[0], s.split('=')[1] === 'throw' ? 'throw' : 'kill'] as const),
);

export function failpoint(name: string): void {
  const action = armed.size ? armed.get(name) : undefined;
  if (action === 'kill') process.kill(process.pid, 'SIGKILL');
  if (action === 'throw') throw new Error(`failpoint ${name}`);
}
