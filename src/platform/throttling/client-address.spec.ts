import { describe, expect, it } from '@jest/globals';
import { clientAddressKey } from 'src/platform/throttling/client-address';

describe('clientAddressKey', () => {
  it('keeps an IPv4 address, also mapped into IPv6', () => {
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey(undefined)).toBe('unknown');
  });

  it('puts the addresses of one IPv6 /64 under one key, and another /64 under another', () => {
    const key = '2001:db8:1:2::/64';
    expect(clientAddressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe(key);
    expect(clientAddressKey('2001:0DB8:0001:0002::1')).toBe(key);
    expect(clientAddressKey('2001:db8:1:2::ffff:198.51.100.1')).toBe(key);
    expect(clientAddressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientAddressKey('2001:db8::5:6:198.51.100.1')).toBe('2001:db8:0:0::/64');
    expect(clientAddressKey('1:2::4:5:6:198.51.100.1')).toBe('1:2:0:4::/64');
    expect(clientAddressKey('::1')).toBe('0:0:0:0::/64');
  });
});
