import ipaddr from 'ipaddr.js';

/**
 * The key a client is limited under: its IPv4 address (also when mapped into IPv6), or the /64 of
 * its IPv6 address (a host is usually given a whole /64 and may send from any address in it). The
 * connection's own address: behind a proxy, that is the proxy's.
 */
export function clientAddressKey(address: string | undefined): string {
  if (address === undefined || !ipaddr.isValid(address)) return address ?? 'unknown';
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}
