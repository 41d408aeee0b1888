import { urlVar } from '../../platform/env-vars';

// Printful's own settings, read from the environment by the registry (../index.ts).

export const PRINTFUL_API_BASE_URL_DEFAULT = 'https://api.printful.com';

export interface PrintfulSettings {
  /** Printful API (v1) base address, PRINTFUL_API_BASE_URL (tests point it at the local Printful-format server). */
  baseUrl: string;
}

export function printfulSettings(env: NodeJS.ProcessEnv): PrintfulSettings {
  return { baseUrl: urlVar(env, 'PRINTFUL_API_BASE_URL', ['http:', 'https:']) || PRINTFUL_API_BASE_URL_DEFAULT };
}
