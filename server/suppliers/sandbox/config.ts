import { intVar } from '../../platform/env-vars';

// The sandbox supplier adapter's own settings, read from the environment by the registry (../index.ts). Where it
// answers (SANDBOX_SUPPLIER_URL, or the program this process starts) stays in the platform's config, with the programs.

export interface SandboxSettings {
  /** Its declared limits (it documents none): dispatch jobs per connection, and calls per second (0: none). */
  callsInFlight: number;
  requestsPerSecond: number;
}

export function sandboxSettings(env: NodeJS.ProcessEnv): SandboxSettings {
  return {
    callsInFlight: intVar(env, 'SANDBOX_SUPPLIER_CALLS_IN_FLIGHT', 20, 1, 1000),
    requestsPerSecond: intVar(env, 'SANDBOX_SUPPLIER_REQUESTS_PER_SECOND', 0, 0, 10000),
  };
}
