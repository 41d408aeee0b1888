/**
 * The AliExpress wire format, on its own: the signature against values computed apart from this code, the local
 * server refusing what AliExpress refuses (a wrong signature, a stale timestamp, another app), the operator's
 * configuration, and the catalogue without an app.
 */
import { buildServices, openDatabase } from '../../server/composition';
import { ConfigError, loadConfig } from '../../server/platform/config';
import { supplierSettings } from '../../server/suppliers';
import { createLogger } from '../../server/platform/logger';
import { sign, signatureBase } from '../../server/suppliers/aliexpress/signature';
import type { Boss } from '../../server/platform/jobs';
import { MAX_SKEW_MS, RunningFakeAliExpress, startFakeAliExpress } from '../fakes/aliexpress';

/* eslint-disable @typescript-eslint/no-explicit-any */

let fake: RunningFakeAliExpress;
beforeAll(async () => {
  fake = await startFakeAliExpress();
});
afterAll(async () => fake?.close());

describe('the signature', () => {
  // Computed with Python's hmac module from the note's recipe, not with this code.
  test('business call: sorted key+value pairs, HMAC-SHA256 with the app secret, upper-case hex', () => {
    const params = {
      app_key: '12345678',
      timestamp: '1700000000000',
      sign_method: 'sha256',
      method: 'aliexpress.ds.product.get',
      product_id: '1005001',
      access_token: 'tok',
    };
    expect(signatureBase(params)).toBe('access_tokentokapp_key12345678methodaliexpress.ds.product.getproduct_id1005001sign_methodsha256timestamp1700000000000');
    expect(sign(params, 'test-secret')).toBe('E282705A75DFF09D60889AAB0C59E463D793A97EEF098B9A73C0764E8E81F2B2');
    expect(sign({ ...params, sign: 'ignored' }, 'test-secret')).toBe('E282705A75DFF09D60889AAB0C59E463D793A97EEF098B9A73C0764E8E81F2B2');
  });

  test('system call: the API path in front', () => {
    const params = { app_key: '12345678', timestamp: '1700000000000', sign_method: 'sha256', code: 'abc' };
    expect(sign(params, 'test-secret', '/auth/token/create')).toBe('39CCE18E2A20D1D30EB1E5AAB9A1B004D3CAD28177C415CF0519BF381F951687');
  });
});

describe('the local server checks every request as AliExpress does', () => {
  async function post(params: Record<string, string>, path = '/sync'): Promise<any> {
    const res = await fetch(fake.baseUrl + path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params).toString(),
    });
    return res.json();
  }
  const signed = (p: Record<string, string>, secret = fake.appSecret, apiPath = '') => ({ ...p, sign: sign(p, secret, apiPath) });
  const base = (timestamp = Date.now()) => ({
    app_key: fake.appKey,
    timestamp: String(timestamp),
    sign_method: 'sha256',
    method: 'aliexpress.ds.text.search',
    access_token: 'nobody',
  });
  const code = (answer: any) => answer.error_response?.code;

  test('signature and app key: a wrong secret, a changed parameter or another app are refused before the token is looked at', async () => {
    expect(code(await post(signed(base(), 'another-secret-entirely')))).toBe('IncompleteSignature');
    expect(code(await post({ ...signed(base()), pageSize: '5' }))).toBe('IncompleteSignature');
    expect(code(await post(signed({ ...base(), app_key: '99999999' })))).toBe('InvalidAppKey');
    expect(code(await post(signed({ ...base(), sign_method: 'md5' })))).toBe('InvalidSignMethod');
    // Signed right: only now is the (unknown) token refused.
    expect(code(await post(signed(base())))).toBe('IllegalAccessToken');
  });

  test('timestamps: within 7,200 s either way taken, beyond refused', async () => {
    const margin = 60_000;
    expect(code(await post(signed(base(Date.now() - MAX_SKEW_MS + margin))))).toBe('IllegalAccessToken');
    expect(code(await post(signed(base(Date.now() + MAX_SKEW_MS - margin))))).toBe('IllegalAccessToken');
    expect(code(await post(signed(base(Date.now() - MAX_SKEW_MS - margin))))).toBe('InvalidTimestamp');
    expect(code(await post(signed(base(Date.now() + MAX_SKEW_MS + margin))))).toBe('InvalidTimestamp');
  });

  test('the sign-in APIs sign their path too', async () => {
    const p = { app_key: fake.appKey, timestamp: String(Date.now()), sign_method: 'sha256', code: 'code_unknown' };
    expect(code(await post(signed(p), '/rest/auth/token/create'))).toBe('IncompleteSignature');
    expect(code(await post(signed(p, fake.appSecret, '/auth/token/create'), '/rest/auth/token/create'))).toBe('InvalidCode');
  });
});

describe("the operator's configuration", () => {
  const env = { APP_SECRET: 'x'.repeat(40), DATABASE_URL: 'postgres://127.0.0.1:1/none' };

  test('key and secret: both or neither, named when wrong', () => {
    // Declared beside the adapter (suppliers/aliexpress/config.ts), read by the registry as the service starts.
    const app = (e: Record<string, string>) => supplierSettings(loadConfig(e, []).env).aliexpress;
    expect(app(env)).toBeNull();
    expect(app({ ...env, ALIEXPRESS_APP_KEY: '34567812', ALIEXPRESS_APP_SECRET: 's'.repeat(32) })).toEqual({
      appKey: '34567812',
      appSecret: 's'.repeat(32),
      apiBaseUrl: 'https://api-sg.aliexpress.com',
    });
    expect(() => app({ ...env, ALIEXPRESS_APP_KEY: '34567812' })).toThrow(
      new ConfigError('Invalid environment variable ALIEXPRESS_APP_SECRET: required when ALIEXPRESS_APP_KEY is set'),
    );
    expect(() => app({ ...env, ALIEXPRESS_APP_SECRET: 's'.repeat(32) })).toThrow(/ALIEXPRESS_APP_KEY: required/);
    expect(() => app({ ...env, ALIEXPRESS_APP_KEY: '34 56', ALIEXPRESS_APP_SECRET: 's'.repeat(32) })).toThrow(/ALIEXPRESS_APP_KEY/);
    expect(() => app({ ...env, ALIEXPRESS_APP_KEY: '34567812', ALIEXPRESS_APP_SECRET: 'short' })).toThrow(/ALIEXPRESS_APP_SECRET/);
    expect(() => app({ ...env, ALIEXPRESS_APP_KEY: '34567812', ALIEXPRESS_APP_SECRET: 's'.repeat(32), ALIEXPRESS_API_BASE_URL: 'ftp://x' })).toThrow(
      /ALIEXPRESS_API_BASE_URL/,
    );
  });

  test('without an app AliExpress is not in the catalogue; with one it is, connected by sign-in', () => {
    const keys = (extra: Record<string, string>) => {
      const config = loadConfig({ ...env, ...extra }, []);
      return buildServices(config, openDatabase(config.databaseUrl), createLogger('silent'), null as unknown as Boss, config.databaseUrl)
        .registry.entries()
        .map((e) => [e.key, e.capabilities.authKind]);
    };
    expect(keys({}).map(([k]) => k)).not.toContain('aliexpress');
    expect(keys({ ALIEXPRESS_APP_KEY: '34567812', ALIEXPRESS_APP_SECRET: 's'.repeat(32) })).toContainEqual(['aliexpress', 'signIn']);
  });
});
