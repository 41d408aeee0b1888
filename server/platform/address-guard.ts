import dns from 'node:dns';
import net from 'node:net';
import { errors } from './errors';

// The one guard for addresses the service itself sends to on a caller's say-so (event subscriptions): only public
// internet addresses, checked when the address is given and again at every connection (a name may be pointed
// elsewhere later). Loopback, private, link-local and other special ranges are refused unless `allowPrivate`, which
// the operator sets explicitly (EVENT_TARGETS_ALLOW_PRIVATE; `npm start` does for the embedded local default).

const blocked4 = new net.BlockList();
for (const [net4, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked4.addSubnet(net4, bits, 'ipv4');

// IPv6 ranges refused whole: unspecified and loopback, local-use NAT64 (RFC 8215: where it embeds the IPv4 address
// is the network's choice), discard, Teredo (the IPv4 inside is obfuscated), benchmarking, documentation (2001:db8::/32
// and 3fff::/20), SRv6 SIDs, unique local, deprecated site-local, link-local, multicast.
const blocked6 = new net.BlockList();
for (const [net6, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['2001:2::', 48],
  ['2001:db8::', 32],
  ['3fff::', 20],
  ['5f00::', 16],
  ['fc00::', 7],
  ['fec0::', 10],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked6.addSubnet(net6, bits, 'ipv6');
}
// IETF protocol assignments (2001::/23) are not global, except those IANA's special-purpose registry marks globally
// reachable: PCP, TURN and DNS-SD SRP anycast, AMT, AS112-v6, ORCHIDv2, DRIP.
const ietfAssignments = new net.BlockList();
ietfAssignments.addSubnet('2001::', 23, 'ipv6');
const globalAssignments = new net.BlockList();
for (const [net6, bits] of [
  ['2001:1::1', 128],
  ['2001:1::2', 128],
  ['2001:1::3', 128],
  ['2001:3::', 32],
  ['2001:4:112::', 48],
  ['2001:20::', 28],
  ['2001:30::', 28],
] as const) {
  globalAssignments.addSubnet(net6, bits, 'ipv6');
}

/** The 16 bytes of an IPv6 address (a trailing dotted IPv4 part and a zone allowed), or null. */
function ipv6Bytes(ip: string): number[] | null {
  let text = ip.split('%')[0].toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    if (net.isIP(dotted[1]) !== 4) return null;
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groups = (s: string) => (s ? s.split(':') : []);
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  const fill = 8 - head.length - tail.length;
  if ((halves.length === 2 && fill < 1) || (halves.length === 1 && fill !== 0)) return null;
  const words = [...head, ...Array(halves.length === 2 ? fill : 0).fill('0'), ...tail];
  if (!words.every((w) => /^[0-9a-f]{1,4}$/.test(w))) return null;
  return words.flatMap((w) => [parseInt(w, 16) >> 8, parseInt(w, 16) & 0xff]);
}

const zeros = (bytes: number[], from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);

/**
 * The IPv4 address an IPv6 one carries, in the forms a connection can reach it by: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-translated (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 well-known prefix (64:ff9b::a.b.c.d) and
 * 6to4 (2002:aabb:ccdd::/48).
 */
function embeddedIpv4(b: number[]): string | null {
  const v4 = (at: number) => b.slice(at, at + 4).join('.');
  if (zeros(b, 0, 10) && b[10] === 0xff && b[11] === 0xff) return v4(12);
  if (zeros(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(b, 10, 12)) return v4(12);
  if (zeros(b, 0, 12)) return v4(12);
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(b, 4, 12)) return v4(12);
  if (b[0] === 0x20 && b[1] === 0x02) return v4(2);
  return null;
}

/** Whether an IP address is a public internet address; an IPv6 address carrying an IPv4 one is judged by both. */
export function isPublicAddress(ip: string): boolean {
  const family = net.isIP(ip.split('%')[0]);
  if (family === 4) return !blocked4.check(ip, 'ipv4');
  if (family !== 6) return false;
  const bytes = ipv6Bytes(ip);
  if (!bytes) return false;
  const text = ip.split('%')[0];
  // `::` and `::1` are IPv4-compatible in form only.
  if (blocked6.check(text, 'ipv6')) return false;
  if (ietfAssignments.check(text, 'ipv6') && !globalAssignments.check(text, 'ipv6')) return false;
  const inner = embeddedIpv4(bytes);
  return inner === null || !blocked4.check(inner, 'ipv4');
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
  if (!addresses.length || !addresses.every(isPublicAddress))
    throw refused('The url must reach a public internet address (not a loopback, private or link-local one).');
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
