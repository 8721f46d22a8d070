import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { forbiddenAddressReason, isAllowedAddress } from 'src/platform/net/address-policy';

const v4 = (a: number, b: number, c: number, d: number) => `${a}.${b}.${c}.${d}`;
const octet = fc.integer({ min: 0, max: 255 });

/** Addresses inside a /prefix IPv4 network given by its first two octets. */
function inNetwork(first: number, second: number, prefix: 8 | 10 | 12 | 16): fc.Arbitrary<string> {
  const span = prefix === 8 ? 256 : 2 ** (16 - prefix);
  return fc
    .tuple(fc.integer({ min: 0, max: prefix === 8 ? 255 : span - 1 }), octet, octet)
    .map(([b, c, d]) => (prefix === 8 ? v4(first, b, c, d) : v4(first, second + b, c, d)));
}

const forbiddenV4 = fc.oneof(
  inNetwork(10, 0, 8),
  inNetwork(172, 16, 12),
  inNetwork(192, 168, 16),
  inNetwork(127, 0, 8),
  inNetwork(169, 254, 16),
  inNetwork(100, 64, 10),
  inNetwork(0, 0, 8),
  fc.tuple(fc.integer({ min: 224, max: 255 }), octet, octet, octet).map(([a, b, c, d]) => v4(a, b, c, d)),
);

const hex = (n: number) => n.toString(16);
const mapped = (address: string) => `::ffff:${address}`;
const nat64 = (address: string) => `64:ff9b::${address}`;
const hexPair = (address: string) => {
  const [a, b, c, d] = address.split('.').map(Number);
  return `${hex(a * 256 + b)}:${hex(c * 256 + d)}`;
};
const sixToFour = (address: string) => `2002:${hexPair(address)}::1`;
const isatap = (address: string) => `2606:4700:1:2:0:5efe:${address}`;
const isatapGlobal = (address: string) => `2a00:1450:4007:80e:200:5efe:${hexPair(address)}`;

describe('forbiddenAddressReason', () => {
  it('refuses every loopback, private, link-local, CGNAT, "this network", multicast and reserved IPv4', () => {
    fc.assert(fc.property(forbiddenV4, (address) => forbiddenAddressReason(address) !== null));
  });

  it('judges IPv6 forms that embed an IPv4 address by that address', () => {
    fc.assert(
      fc.property(fc.tuple(octet, octet, octet, octet), ([a, b, c, d]) => {
        const address = v4(a, b, c, d);
        const expected = forbiddenAddressReason(address) === null;
        return [mapped, nat64, sixToFour, isatap, isatapGlobal].every(
          (form) => (forbiddenAddressReason(form(address)) === null) === expected,
        );
      }),
    );
    fc.assert(fc.property(forbiddenV4, (address) => forbiddenAddressReason(mapped(address)) !== null));
  });

  it('refuses every IPv4-compatible address (::/96, deprecated), whatever IPv4 address it carries', () => {
    fc.assert(
      fc.property(fc.tuple(octet, octet, octet, octet), ([a, b, c, d]) => {
        const address = v4(a, b, c, d);
        return (
          forbiddenAddressReason(`::${address}`) !== null &&
          forbiddenAddressReason(`::${hexPair(address)}`) !== null
        );
      }),
    );
  });

  it('refuses Teredo and local-use NAT64 addresses, whatever IPv4 address they carry', () => {
    fc.assert(
      fc.property(
        fc.tuple(octet, octet, octet, octet),
        fc.integer({ min: 0, max: 0xffff }),
        ([a, b, c, d], flags) => {
          const address = v4(a, b, c, d);
          // Teredo: server IPv4 in bits 32-63, the client's port and IPv4 inverted in bits 80-127.
          const teredo = `2001:0:${hexPair(address)}:${hex(flags)}:ffff:ffff:ffff`;
          return (
            forbiddenAddressReason(teredo) !== null &&
            forbiddenAddressReason(`64:ff9b:1::${address}`) !== null
          );
        },
      ),
    );
  });

  it('refuses IPv6 addresses outside global unicast (2000::/3) that ipaddr.js leaves unclassified', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0x4000, max: 0xfbff }),
        fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 7, maxLength: 7 }),
        (first, rest) => forbiddenAddressReason([first, ...rest].map(hex).join(':')) !== null,
      ),
    );
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['169.254.169.254', 'linkLocal'],
    ['10.1.2.3', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::ffff:7f00:1', 'loopback'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['::127.0.0.1', 'ipv4Compatible'],
    ['::7f00:1', 'ipv4Compatible'],
    ['::a00:1', 'ipv4Compatible'],
    ['::169.254.169.254', 'ipv4Compatible'],
    ['::8.8.8.8', 'ipv4Compatible'],
    ['::1:0:0:1', 'reserved'],
    ['100::1', 'discard'],
    ['4000::1', 'reserved'],
    ['64:ff9b:1::a00:1', 'rfc6052'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['2002:a00:1::1', 'private'],
    ['2002:7f00:1::1', 'loopback'],
    ['2606:4700::5efe:10.0.0.1', 'private'],
    ['2606:4700::200:5efe:7f00:1', 'loopback'],
    ['2606:4700::5efe:169.254.169.254', 'linkLocal'],
    ['2001:db8::1', 'reserved'],
  ])('refuses %s (%s)', (address, reason) => {
    expect(forbiddenAddressReason(address)).toBe(reason);
    expect(isAllowedAddress(address, false)).toBe(false);
    expect(isAllowedAddress(address, true)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
    '2606:4700::5efe:8.8.8.8',
  ])('lets the public address %s through', (address) => {
    expect(forbiddenAddressReason(address)).toBeNull();
    expect(isAllowedAddress(address, false)).toBe(true);
  });

  it('refuses what is not an address at all', () => {
    expect(forbiddenAddressReason('example.com')).toBe('not an IP address');
  });
});
