import { bad, urlVar } from '../../platform/env-vars';

// AliExpress's own settings, read from the environment by the registry (../index.ts).

const ALIEXPRESS_API_BASE_URL_DEFAULT = 'https://api-sg.aliexpress.com';

/** The operator's AliExpress Open Platform app; null when none is configured (AliExpress is then not offered). */
export type AliExpressSettings = { appKey: string; appSecret: string; apiBaseUrl: string } | null;

/** Both or neither: an app key without its secret (or the reverse) cannot sign anything. */
export function aliExpressSettings(env: NodeJS.ProcessEnv): AliExpressSettings {
  const appKey = (env.ALIEXPRESS_APP_KEY ?? '').trim();
  const appSecret = env.ALIEXPRESS_APP_SECRET ?? '';
  if (!appKey && !appSecret) return null;
  if (!appKey) bad('ALIEXPRESS_APP_KEY', 'required when ALIEXPRESS_APP_SECRET is set');
  if (!appSecret) bad('ALIEXPRESS_APP_SECRET', 'required when ALIEXPRESS_APP_KEY is set');
  if (!/^[0-9A-Za-z]{4,64}$/.test(appKey)) bad('ALIEXPRESS_APP_KEY', 'expected the app key of the AliExpress Open Platform console (letters and digits)');
  if (!/^[\x21-\x7e]{16,128}$/.test(appSecret))
    bad('ALIEXPRESS_APP_SECRET', 'expected the app secret of the AliExpress Open Platform console (16 to 128 printable characters)');
  return { appKey, appSecret, apiBaseUrl: urlVar(env, 'ALIEXPRESS_API_BASE_URL', ['http:', 'https:']) || ALIEXPRESS_API_BASE_URL_DEFAULT };
}
