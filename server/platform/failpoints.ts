/**
 * Named crash points for fault drills: a process started with FAILPOINTS=<name>[,<name>...] kills itself with
 * SIGKILL when it reaches one, exactly as a power cut would. Unset (always, outside the drills), it does nothing.
 */
const armed = new Set((process.env.FAILPOINTS ?? '').split(',').map((s) => s.trim()).filter(Boolean));

export function failpoint(name: string): void {
  if (armed.size && armed.has(name)) process.kill(process.pid, 'SIGKILL');
}
