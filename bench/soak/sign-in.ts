/**
 * An AliExpress connection made the way a merchant makes one: the sign-in is started with the owner's key, opened in
 * the owner's browser signed in to the console (which sets the browser's cookie and answers AliExpress's page), the
 * buyer approves at AliExpress, and AliExpress sends that browser back to the service (docs/decisions.md, "Sign-in
 * bound to the person"). The browser here is a cookie jar over fetch, as much of one as the sign-in needs.
 */
import { Api, newRequestId, resultOf } from './api';

class CookieJar {
  private readonly cookies = new Map<string, { value: string; path: string }>();

  headerFor(url: URL): Record<string, string> {
    const sent = [...this.cookies].filter(([, c]) => url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`));
    return sent.length ? { Cookie: sent.map(([name, c]) => `${name}=${c.value}`).join('; ') } : {};
  }

  keep(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      const path = attrs.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      const gone = attrs.some((a) => /^max-age=0$/i.test(a)) || pair.slice(eq + 1) === '';
      if (gone) this.cookies.delete(pair.slice(0, eq));
      else this.cookies.set(pair.slice(0, eq), { value: pair.slice(eq + 1), path });
    }
  }
}

export interface SignedIn {
  connId: string;
  /** The callback's request id: the connection's 5 credits are on the ledger under it. */
  requestId: string;
  status: number;
}

/** Signs the store in to the AliExpress buyer `userId`; answers the connection the way back made. */
export async function signInToAliExpress(api: Api, owner: { key: string; session: string }, storeId: string, userId: string): Promise<SignedIn> {
  const started = resultOf(
    await api.patiently<{ result: { authorizationUrl: string } }>('POST', `/api/store-suppliers/${storeId}/oauth/start`, {
      key: owner.key,
      body: { supplierKey: 'aliexpress', mode: 'live' },
    }),
    'AliExpress sign-in start',
  );
  const [, signInId] = /#connect\/[^/]+\/([^/]+)$/.exec(started.authorizationUrl) ?? [];
  if (!signInId) throw new Error(`no sign-in in ${started.authorizationUrl}`);
  const jar = new CookieJar();
  const openUrl = new URL(`${api.baseUrl}/api/store-suppliers/${storeId}/oauth/${signInId}/open`);
  const opened = await fetch(openUrl, { method: 'POST', headers: { Authorization: `Bearer ${owner.session}`, ...jar.headerFor(openUrl) }, redirect: 'manual' });
  jar.keep(opened);
  const openedBody = (await opened.json()) as { result?: { supplierUrl: string } };
  if (opened.status !== 200 || !openedBody.result) throw new Error(`sign-in not opened: ${opened.status} ${JSON.stringify(openedBody)}`);
  // The buyer approves on AliExpress's page, which sends the browser back with a code.
  const approved = await fetch(`${openedBody.result.supplierUrl}&${new URLSearchParams({ user: userId })}`, { redirect: 'manual' });
  const back = approved.headers.get('location');
  if (approved.status !== 302 || !back) throw new Error(`AliExpress did not send the browser back: ${approved.status} ${await approved.text()}`);
  const requestId = newRequestId();
  const backUrl = new URL(back, openedBody.result.supplierUrl);
  const landed = await fetch(backUrl, { headers: { ...jar.headerFor(backUrl), 'X-Request-Id': requestId }, redirect: 'manual' });
  jar.keep(landed);
  const text = await landed.text();
  if (landed.status !== 201) throw new Error(`the way back from AliExpress answered ${landed.status}: ${text.slice(0, 300)}`);
  return { connId: (JSON.parse(text) as { result: { id: string } }).result.id, requestId, status: landed.status };
}
