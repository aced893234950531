import { describe, expect, it } from 'vitest';
import { throttleAddress } from './throttleAddress.js';

describe('the address a throttle counts', () => {
  it('keeps an IPv4 address as it is, IPv4-mapped IPv6 included', () => {
    expect(throttleAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(throttleAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts every address of one IPv6 /64 as one client', () => {
    const a = throttleAddress('2001:db8:abcd:12::1');
    expect(a).toBe('2001:db8:abcd:12::/64');
    expect(throttleAddress('2001:DB8:ABCD:0012:ffff:ffff:ffff:fffe')).toBe(a);
    expect(throttleAddress('2001:db8:abcd:13::1')).not.toBe(a);
    expect(throttleAddress('::1')).toBe('0:0:0:0::/64');
    expect(throttleAddress('2001:db8::')).toBe('2001:db8:0:0::/64');
  });
});
