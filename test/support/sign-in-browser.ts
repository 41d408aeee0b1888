/**
 * A browser as far as a supplier sign-in needs one: a cookie jar, redirects followed by hand, and the one step the
 * console's page takes when it is opened at a sign-in's address (it signs in, then opens the sign-in in this browser,
 * which sets the browser's cookie and answers the supplier's page). Every answer joins the file's leak scan.
 *
 * The jar keeps what a browser keeps for one host: name, value, path and expiry. Every request made here is a
 * top-level GET navigation or a same-origin fetch, the two cases where a SameSite=Lax cookie is sent.
 */
import { seen, Service } from './harness';

interface Cookie {
  host: string;
  name: string;
  value: string;
  path: string;
  expires: number;
  attributes: string[];
}

export interface Page {
  url: string;
  status: number;
  text: string;
  body: any;
}

export class CookieBrowser {
  private readonly cookies = new Map<string, Cookie>();

  /** The cookies this browser holds for a host, as they were set (attributes lower-cased). */
  held(host: string): Cookie[] {
    return [...this.cookies.values()].filter((c) => c.host === host && c.expires > Date.now());
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const u = new URL(url);
    const headers = new Headers(init.headers);
    const sent = this.held(u.hostname).filter((c) => u.pathname === c.path || u.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`));
    if (sent.length) headers.set('Cookie', sent.map((c) => `${c.name}=${c.value}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) this.keep(u, line);
    return res;
  }

  /** Follows redirects as a browser does (GET after a redirect), answering the page it ends on. */
  async navigate(url: string): Promise<Page> {
    let at = url;
    for (let hop = 0; hop < 10; hop++) {
      const res = await this.fetch(at);
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        at = new URL(location, at).toString();
        continue;
      }
      return page(at, res);
    }
    throw new Error(`too many redirects from ${url}`);
  }

  private keep(from: URL, line: string): void {
    const [pair, ...attrs] = line.split(';').map((s) => s.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const attributes = attrs.map((a) => a.toLowerCase());
    const attr = (key: string) => attrs.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
    const maxAge = attr('max-age');
    const expires = maxAge !== undefined ? Date.now() + Number(maxAge) * 1000 : Number.MAX_SAFE_INTEGER;
    const cookie: Cookie = { host: from.hostname, name, value: pair.slice(eq + 1), path: attr('path') ?? '/', expires, attributes };
    this.cookies.set(`${cookie.host}|${cookie.path}|${name}`, cookie);
  }
}

async function page(url: string, res: Response): Promise<Page> {
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* a page, not JSON */
  }
  seen.responses.push({ route: `${res.status} ${url.split('?')[0]}`, text });
  return { url, status: res.status, text, body };
}

/**
 * What the console's page does at a sign-in's address (`/console#connect/<storeId>/<signInId>`), signed in with
 * `session`: opens the sign-in in this browser and answers the supplier's page to go to. An address that is not at
 * the service is already the supplier's page.
 */
export async function openSignIn(
  browser: CookieBrowser,
  svc: Service,
  authorizationUrl: string,
  session: string,
): Promise<{ status: number; body: any; supplierUrl?: string }> {
  const at = new URL(authorizationUrl);
  if (at.origin !== new URL(svc.baseUrl).origin) return { status: 200, body: undefined, supplierUrl: authorizationUrl };
  const console = await browser.navigate(authorizationUrl);
  if (console.status !== 200 || !console.text.includes('/console/main.js'))
    throw new Error(`the sign-in address is not the console: ${console.status} ${console.text.slice(0, 200)}`);
  const [, storeId, signInId] = /^#connect\/([^/]+)\/([^/]+)$/.exec(at.hash) ?? [];
  if (!storeId || !signInId) throw new Error(`no sign-in in ${authorizationUrl}`);
  const res = await browser.fetch(`${svc.baseUrl}/api/store-suppliers/${storeId}/oauth/${signInId}/open`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${session}` },
  });
  const p = await page(res.url || `${svc.baseUrl}/api/store-suppliers/${storeId}/oauth/${signInId}/open`, res);
  return { status: p.status, body: p.body, supplierUrl: p.status === 200 ? p.body.result.supplierUrl : undefined };
}

/** The merchant approves on the supplier's page; answers where the supplier sends the browser back (not followed). */
export async function approveAt(supplierUrl: string, approval: Record<string, string>): Promise<string> {
  const res = await fetch(`${supplierUrl}&${new URLSearchParams(approval).toString()}`, { redirect: 'manual' });
  const location = res.headers.get('location');
  if (res.status !== 302 || !location) throw new Error(`the supplier did not send the browser back: ${res.status} ${await res.text()}`);
  return location;
}

/** Sandbox supplier approval, by the account that signs in. */
export const sandboxApproval = (accountId: string) => ({ accountId, approve: '1' });
/** AliExpress-format server approval, by the buyer who signs in. */
export const aliExpressApproval = (userId: string) => ({ user: userId });

/**
 * A member's whole sign-in, in a browser of their own: opens the address `oauth/start` answered (signed in as
 * `session`), approves at the supplier, and follows the way back; answers the callback's page.
 */
export async function signInInBrowser(svc: Service, authorizationUrl: string, session: string, approval: Record<string, string>): Promise<Page> {
  const browser = new CookieBrowser();
  const opened = await openSignIn(browser, svc, authorizationUrl, session);
  if (!opened.supplierUrl) throw new Error(`the sign-in was not opened: ${opened.status} ${JSON.stringify(opened.body)}`);
  return browser.navigate(await approveAt(opened.supplierUrl, approval));
}
