import { isIPv6 } from 'node:net';

const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** An IPv6 address's eight groups; an embedded IPv4 address stands for the last two. */
function ipv6Groups(address: string): string[] {
  const groups = (part: string) =>
    part === '' ? [] : part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group]));
  const [head, tail] = address.split('::');
  if (tail === undefined) return groups(head);
  const [left, right] = [groups(head), groups(tail)];
  return [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
}

/**
 * The key a client is limited under: its IPv4 address, or the /64 of its IPv6 address (a host is
 * usually given a whole /64 and may send from any address in it). The connection's own address:
 * behind a proxy, that is the proxy's.
 */
export function clientAddressKey(address: string | undefined): string {
  if (address === undefined) return 'unknown';
  const mapped = IPV4_MAPPED.exec(address);
  if (mapped) return mapped[1];
  if (!isIPv6(address)) return address;
  const prefix = ipv6Groups(address)
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16));
  return `${prefix.join(':')}::/64`;
}
