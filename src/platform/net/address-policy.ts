import ipaddr from 'ipaddr.js';

/**
 * Why an address may not be contacted, or null when it is an ordinary public unicast address.
 * Everything ipaddr.js does not classify as `unicast` is refused (loopback, private, link-local,
 * unique-local, CGNAT, multicast, reserved…); IPv6 forms that embed an IPv4 address (mapped,
 * translated, NAT64, 6to4) are judged by that IPv4 address.
 */
export function forbiddenAddressReason(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return ipv4Reason(parsed as ipaddr.IPv4);
  const ipv6 = parsed as ipaddr.IPv6;
  const embedded = embeddedIpv4(ipv6);
  if (embedded) return ipv4Reason(embedded);
  const range = ipv6.range();
  return range === 'unicast' ? null : range;
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
  return null;
}

/** Whether `address` may be contacted under this setting. */
export function isAllowedAddress(address: string, allowPrivateNetworks: boolean): boolean {
  return allowPrivateNetworks || forbiddenAddressReason(address) === null;
}
