import { urlVar } from '../../platform/env-vars';

// CJ's own settings, read from the environment by the registry (../index.ts).

export const CJ_API_BASE_URL_DEFAULT = 'https://developers.cjdropshipping.com/api2.0/v1';

export interface CjSettings {
  /** CJ Dropshipping API 2.0 base address, CJ_API_BASE_URL (tests point it at the local CJ-format server). */
  baseUrl: string;
}

export function cjSettings(env: NodeJS.ProcessEnv): CjSettings {
  return { baseUrl: urlVar(env, 'CJ_API_BASE_URL', ['http:', 'https:']) || CJ_API_BASE_URL_DEFAULT };
}
