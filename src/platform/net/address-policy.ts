import ipaddr from 'ipaddr.js';

/** 2000::/3, the only IPv6 block IANA hands out for global unicast. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
/** ::/96, "IPv4-compatible" addresses: deprecated (RFC 4291), and an older stack reaches ::a.b.c.d over IPv4. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/**
 * Why an address may not be contacted, or null when it is an ordinary public unicast address.
 * Everything ipaddr.js does not classify as `unicast` is refused (loopback, private, link-local,
 * unique-local, CGNAT, multicast, reserved, Teredo, local-use NAT64…), and so is IPv6 outside
 * 2000::/3. IPv6 forms that embed an IPv4 address a network may translate to (mapped, translated,
 * NAT64, 6to4, ISATAP) are judged by that IPv4 address.
 */
export function forbiddenAddressReason(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  if (isDottedIpv4Compatible(address)) return 'ipv4Compatible';
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return ipv4Reason(parsed as ipaddr.IPv4);
  const ipv6 = parsed as ipaddr.IPv6;
  const embedded = embeddedIpv4(ipv6);
  if (embedded) return ipv4Reason(embedded);
  const range = ipv6.range();
  if (range !== 'unicast') return range;
  if (ipv6.match(IPV4_COMPATIBLE)) return 'ipv4Compatible';
  return ipv6.match(GLOBAL_UNICAST) ? null : 'reserved';
}

/** `::a.b.c.d`, which ipaddr.js reads as IPv4-mapped (`::ffff:a.b.c.d`) but a network stack as ::/96. */
function isDottedIpv4Compatible(address: string): boolean {
  const rest = address.slice(2).split('%')[0];
  return address.startsWith('::') && rest.split('.').length === 4 && ipaddr.IPv4.isValid(rest);
}

function ipv4Reason(ipv4: ipaddr.IPv4): string | null {
  const range = ipv4.range();
  return range === 'unicast' ? null : range;
}

/** The IPv4 address an IPv6 address stands for, in the forms a network may translate to IPv4. */
function embeddedIpv4(ipv6: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = ipv6.range();
  const bytes = ipv6.toByteArray();
  if (range === 'ipv4Mapped') return ipv6.toIPv4Address();
  // ::ffff:0:a.b.c.d (RFC 6145) and 64:ff9b::a.b.c.d (NAT64, RFC 6052): the last 32 bits.
  if (range === 'rfc6145' || (range === 'rfc6052' && ipv6.parts[2] === 0)) {
    return new ipaddr.IPv4(bytes.slice(12, 16));
  }
  // 2002:AABB:CCDD::/48 (6to4) carries a.b.c.d in bits 16-47.
  if (range === '6to4') return new ipaddr.IPv4(bytes.slice(2, 6));
  // ISATAP (RFC 5214): an interface id of 0000:5efe:a.b.c.d, its universal/group bits aside.
  if (range === 'unicast' && (ipv6.parts[4] & ~0x0300) === 0 && ipv6.parts[5] === 0x5efe) {
    return new ipaddr.IPv4(bytes.slice(12, 16));
  }
  return null;
}

/** Whether `address` may be contacted under this setting. */
export function isAllowedAddress(address: string, allowPrivateNetworks: boolean): boolean {
  return allowPrivateNetworks || forbiddenAddressReason(address) === null;
}
