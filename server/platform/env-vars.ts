// Reading one environment variable each: a bad value stops the start with a sentence naming the variable.

export class ConfigError extends Error {}

export function bad(name: string, why: string): never {
  throw new ConfigError(`Invalid environment variable ${name}: ${why}`);
}

export function intVar(env: NodeJS.ProcessEnv, name: string, dflt: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  if (!/^\d+$/.test(raw)) bad(name, `expected a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) bad(name, `expected a number from ${min} to ${max}, got ${n}`);
  return n;
}

export function boolVar(env: NodeJS.ProcessEnv, name: string, dflt: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  bad(name, `expected true or false, got "${raw}"`);
}

export function enumVar<T extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly T[], dflt: T): T {
  const raw = (env[name] ?? '').trim();
  if (!raw) return dflt;
  if (!values.includes(raw as T)) bad(name, `expected one of ${values.join(', ')}, got "${raw}"`);
  return raw as T;
}

export function urlVar(env: NodeJS.ProcessEnv, name: string, protocols: string[]): string {
  const raw = (env[name] ?? '').trim();
  if (!raw) return '';
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    bad(name, `not a URL: "${redactUrl(raw)}"`);
  }
  if (!protocols.includes(u.protocol)) bad(name, `expected a ${protocols.join(' or ')} URL`);
  return raw.replace(/\/+$/, '');
}

function redactUrl(raw: string): string {
  return raw.replace(/\/\/[^@/]*@/, '//***@');
}

export function cronVar(env: NodeJS.ProcessEnv, name: string, dflt: string): string {
  const raw = (env[name] ?? '').trim();
  if (!raw) return dflt;
  if (!/^(\S+\s+){4}\S+$/.test(raw)) bad(name, `expected a cron expression of five fields, got "${raw}"`);
  return raw;
}
