/**
 * CJ product page addresses, read from their text alone (nothing is ever fetched).
 *
 * Accepted: `http(s)://cjdropshipping.com/product/<slug>-p-<pid>.html` and the same on `www.cjdropshipping.com`,
 * with or without the slug (`/product/p-<pid>.html`), any query string or fragment ignored. `<pid>` is CJ's
 * product id as CJ spells it: a GUID (`04A22450-67F0-4617-A132-E7AE7F8963B0`) or a long number
 * (`1745293574428463104`). Anything else (other hosts or ports, user info, other paths, a trailing slash) is
 * not a CJ product page.
 */
import { storable } from '../http';

const HOSTS = new Set(['cjdropshipping.com', 'www.cjdropshipping.com']);
const PID = '[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}|[0-9]{6,25}';
// The slug is everything up to the last "-p-": a GUID or a number cannot contain "p-", so the split is unambiguous.
const PRODUCT_PATH = new RegExp(`^/product/(?:[^/]*-)?p-(${PID})\\.html$`);

export function cjProductIdFromUrl(url: URL): string | null {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (!HOSTS.has(url.hostname) || url.port !== '' || url.username !== '' || url.password !== '') return null;
  const match = PRODUCT_PATH.exec(url.pathname);
  return match ? match[1] : null;
}

/** The public page of a product, in the accepted form, so that it resolves back to the same id. */
export function cjProductUrl(pid: string, title: string): string {
  const slug = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return `https://cjdropshipping.com/product/${slug ? `${slug}-` : ''}p-${encodeURIComponent(storable(pid))}.html`;
}
