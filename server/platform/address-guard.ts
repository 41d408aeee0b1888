import dns from 'node:dns';
import net from 'node:net';
import { errors } from './errors';

// The one guard for addresses the service itself sends to on a caller's say-so (event subscriptions): only public
// internet addresses, checked when the address is given and again at every connection (a name may be pointed
// elsewhere later). Loopback, private, link-local and other special ranges are refused unless `allowPrivate` (the
// local default, where a developer's receiver runs on the same machine).

const blocked = new net.BlockList();
for (const [net4, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net4, bits, 'ipv4');
for (const [net6, bits] of [['::', 128], ['::1', 128], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) {
  blocked.addSubnet(net6, bits, 'ipv6');
}

/** Whether an IP address is a public internet address (an IPv4-mapped IPv6 address is judged as its IPv4 one). */
export function isPublicAddress(ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped ? mapped[1] : ip;
  const family = net.isIP(address);
  if (!family) return false;
  return !blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const refused = (message: string) => errors.badRequest('targetNotAllowed', message, [{ field: 'body/url', message }]);

/** A target address as given: http(s), no user name or password in it, and a host that resolves to allowed addresses. */
export async function checkTarget(raw: string, allowPrivate: boolean): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused('The url is not an absolute http or https address.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refused('The url must be an http or https address.');
  if (url.username || url.password) throw refused('The url must not carry a user name or password.');
  if (allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = net.isIP(host) ? [host] : (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    throw refused(`The host ${host} could not be resolved.`);
  }
  if (!addresses.length || !addresses.every(isPublicAddress)) throw refused('The url must reach a public internet address (not a loopback, private or link-local one).');
  return url;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for outgoing requests that answers only allowed addresses, so the check holds at connection time too.
 * (An IP literal in the url is not looked up: check it with `isPublicAddress` before sending.)
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (err, found) => {
      if (err) return callback(err, '');
      const ok = (found as dns.LookupAddress[]).filter((a) => allowPrivate || isPublicAddress(a.address));
      if (!ok.length) return callback(Object.assign(new Error(`${hostname} resolves to no public address`), { code: 'ENOTPUBLIC' }), '');
      if (options.all) return callback(null, ok);
      callback(null, ok[0].address, ok[0].family);
    });
  };
}
