// The browser a sign-in is bound to: its one-time value (a cookie for the callback only) and the addresses it goes
// through at this service (./sign-in.ts).

export const SIGN_IN_CALLBACK_PATH = '/api/store-suppliers/oauth/callback';
/**
 * The browser's one-time value, one cookie per sign-in (so two sign-ins in one browser do not clash). Over https it is
 * a `__Host-` cookie (Secure, this host only, Path=/), which a sibling host or a plain-http page cannot set or shadow;
 * plain http (only the loopback local default) cannot hold one, so the cookie is sent only to the callback there.
 */
export const cookieName = (id: string, secure: boolean) => `${secure ? '__Host-' : ''}ss_sign_in_${id}`;

export const isHttps = (base: string) => base.startsWith('https:');
/** Where the supplier sends the browser back: only ever at the configured public address. */
export const callbackUri = (base: string) => `${base}${SIGN_IN_CALLBACK_PATH}`;

/** The sign-in's address at this service: the console opens it for a signed-in member of the store. */
export const signInAddress = (storeId: string, id: string) => `/console#connect/${storeId}/${id}`;

/** The cookie, as `Set-Cookie` writes it: for the callback only, never readable by scripts, sent on the supplier's redirect. */
export function browserCookie(id: string, value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${cookieName(id, secure)}=${value}; Path=${secure ? '/' : SIGN_IN_CALLBACK_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function cookieOf(header: string | string[] | undefined, name: string): string | undefined {
  for (const part of [header ?? ''].flat().join(';').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
