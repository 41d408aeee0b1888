/**
 * HTTP to the AliExpress Open Platform: signed form POSTs to `/sync` (business APIs, named by `method`) and to
 * `/rest/<path>` (the sign-in APIs). Answers the API's own response object, or its `error_response` as an
 * `AeRefusal`; throws `timeout`/`unavailable` only when no readable answer came. Never retries by itself.
 */
import { SupplierError } from '../errors';
import { cleanSupplierWords, jsonOrUndefined, Obj, sendRequest } from '../http';
import { sign } from './signature';

const NAMES = { subject: 'AliExpress', object: 'AliExpress' };

/** The operator's app (ALIEXPRESS_APP_KEY, ALIEXPRESS_APP_SECRET) and where AliExpress answers. */
export interface AeApp {
  appKey: string;
  appSecret: string;
  /** `https://api-sg.aliexpress.com` (no trailing slash); tests point it at the local AliExpress-format server. */
  baseUrl: string;
}

/** AliExpress said no: `error_response`, its words cleaned of anything sensitive. */
export interface AeRefusal {
  code: string;
  subCode: string;
  type: string;
  message: string;
  label: string;
}

export type AeAnswer = { ok: true; body: Obj; text: string; label: string } | { ok: false; refusal: AeRefusal };

export interface AeCall {
  timeoutMs: number;
  /** Values to scrub from any message built from the answer. */
  secrets: string[];
}

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : '');

export class AeHttp {
  readonly baseUrl: string;

  constructor(readonly app: AeApp) {
    this.baseUrl = app.baseUrl.replace(/\/+$/, '');
  }

  /** The system parameters plus `sign`; `apiPath` is signed in front for the sign-in APIs. */
  signed(params: Record<string, string>, apiPath = ''): Record<string, string> {
    const all = { ...params, app_key: this.app.appKey, timestamp: String(Date.now()), sign_method: 'sha256' };
    return { ...all, sign: sign(all, this.app.appSecret, apiPath) };
  }

  /** A business API: the `<method>_response` object (e.g. `aliexpress_ds_product_get_response`). */
  business(method: string, params: Record<string, string>, accessToken: string, call: AeCall): Promise<AeAnswer> {
    const form = this.signed({ ...params, method, access_token: accessToken });
    return this.post('/sync', form, method, `${method.replace(/\./g, '_')}_response`, call);
  }

  /** A sign-in API (`/auth/token/create`, `/auth/token/refresh`): the answer's top level. */
  system(path: string, params: Record<string, string>, call: AeCall): Promise<AeAnswer> {
    return this.post(`/rest${path}`, this.signed(params, path), path, null, call);
  }

  private async post(path: string, form: Record<string, string>, label: string, wrapper: string | null, call: AeCall): Promise<AeAnswer> {
    const res = await sendRequest({ method: 'POST', baseUrl: this.baseUrl, path, form, timeoutMs: call.timeoutMs }, NAMES);
    if (res.status >= 500) throw new SupplierError('unavailable', `AliExpress failed ${label} (HTTP ${res.status})`);
    if (res.status >= 300 && res.status < 400)
      throw new SupplierError('unavailable', `AliExpress answered ${label} with an unexpected redirect (HTTP ${res.status})`);
    const body = jsonOrUndefined(res.text);
    const o = body && typeof body === 'object' && !Array.isArray(body) ? (body as Obj) : null;
    if (!o) throw new SupplierError('unavailable', `AliExpress answered ${label} with something other than JSON (HTTP ${res.status})`);
    const err = o.error_response;
    if (err && typeof err === 'object' && !Array.isArray(err)) {
      const e = err as Obj;
      const said = text(e.sub_msg) || text(e.msg) || text(e.message);
      return {
        ok: false,
        refusal: { code: text(e.code), subCode: text(e.sub_code), type: text(e.type), message: cleanSupplierWords(said, call.secrets), label },
      };
    }
    const inner = wrapper === null ? o : o[wrapper];
    if (!inner || typeof inner !== 'object' || Array.isArray(inner))
      throw new SupplierError('unavailable', `AliExpress answered ${label} without ${wrapper ?? 'a body'} (HTTP ${res.status})`);
    return { ok: true, body: inner as Obj, text: res.text, label };
  }
}
