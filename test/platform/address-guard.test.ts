/**
 * The address guard's IPv6 ranges (issue 40, item 5c), unit level: deprecated, reserved, documentation and
 * special-purpose ranges are not public, whatever their form; the globally reachable parts of 2001::/23 and ordinary
 * global unicast are. The same addresses are refused over HTTP in test/events/targets.test.ts.
 */
import { isPublicAddress } from '../../server/platform/address-guard';

const RESERVED_IPV6 = [
  'fec0::1',
  'feff:ffff::1', // site-local fec0::/10 (deprecated)
  '100::',
  '100::ffff:ffff:ffff:ffff', // discard 100::/64
  '2001:db8::1',
  '2001:db8:ffff::1', // documentation
  '3fff::1',
  '3fff:fff::1', // documentation 3fff::/20
  '5f00::1',
  '5f00:ffff::1', // SRv6 SIDs 5f00::/16
  '2001::1',
  '2001:0:4136:e378::1', // Teredo
  '2001:2::1', // benchmarking
  '2001:1::4',
  '2001:5::1',
  '2001:10::1',
  '2001:100::1',
  '2001:1ff:ffff::1', // IETF protocol assignments, not global
  '::',
  '::1',
  'fc00::1',
  'fd12:3456::1',
  'fe80::1',
  'fe80::1%eth0',
  'ff02::1',
  'ff0e::1',
];

const GLOBAL_IPV6 = [
  '2606:4700:4700::1111',
  '2a00:1450:4001:80b::200e',
  '2001:200::1', // global unicast (2001:200::/23 is outside 2001::/23)
  '2001:1::1',
  '2001:1::2',
  '2001:1::3',
  '2001:3::1',
  '2001:4:112::1',
  '2001:20::1',
  '2001:30::1', // 2001::/23, global
];

test('deprecated, reserved and special-purpose IPv6 ranges are not public addresses', () => {
  expect(RESERVED_IPV6.filter(isPublicAddress)).toEqual([]);
});

test('global IPv6 unicast, including the globally reachable IETF assignments, is public', () => {
  expect(GLOBAL_IPV6.filter((a) => !isPublicAddress(a))).toEqual([]);
});
