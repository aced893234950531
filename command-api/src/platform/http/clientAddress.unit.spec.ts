import { describe, expect, it } from 'vitest';
import { canonicalAddress, parseAddressRule, rulesCover } from './addressRules.js';
import { clientAddress, parseTrustedProxies } from './clientAddress.js';

describe('address rules', () => {
  it('writes addresses in one canonical form', () => {
    expect(canonicalAddress('2001:0DB8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(canonicalAddress('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(canonicalAddress(' 203.0.113.9 ')).toBe('203.0.113.9');
    for (const bad of ['256.0.0.1', '01.2.3.4', 'example.com', '', 'fe80::1%eth0']) expect(canonicalAddress(bad), bad).toBeNull();
  });

  it('parses addresses and CIDR ranges, refusing impossible prefixes', () => {
    expect(parseAddressRule('203.0.113.0/24')).toMatchObject({ text: '203.0.113.0/24', family: 'ipv4', prefix: 24 });
    expect(parseAddressRule('2001:db8::/32')).toMatchObject({ text: '2001:db8::/32', family: 'ipv6', prefix: 32 });
    expect(parseAddressRule('::ffff:10.0.0.0/104')).toMatchObject({ text: '10.0.0.0/8' });
    for (const bad of ['10.0.0.0/33', '2001:db8::/129', '10.0.0.0/', '10.0.0.0/x', '1.2.3.4/8/8', '::ffff:10.0.0.0/90']) expect(parseAddressRule(bad), bad).toBeNull();
  });

  it('matches addresses against addresses and ranges of both families', () => {
    const rules = ['203.0.113.0/24', '2001:db8::/32', '198.51.100.7'];
    expect(rulesCover(rules, '203.0.113.200')).toBe(true);
    expect(rulesCover(rules, '::ffff:203.0.113.200')).toBe(true);
    expect(rulesCover(rules, '2001:db8:1::5')).toBe(true);
    expect(rulesCover(rules, '198.51.100.7')).toBe(true);
    expect(rulesCover(rules, '198.51.100.8')).toBe(false);
    expect(rulesCover(rules, '2001:db9::1')).toBe(false);
    expect(rulesCover(rules, 'garbage')).toBe(false);
  });
});

describe('client address', () => {
  const trusted = parseTrustedProxies('10.0.0.1, 10.1.0.0/16');

  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress('::ffff:198.51.100.7', '203.0.113.9', [])).toBe('198.51.100.7');
  });

  it('is the socket peer when the peer is not a trusted proxy', () => {
    expect(clientAddress('198.51.100.7', '203.0.113.9', trusted)).toBe('198.51.100.7');
  });

  it('is the right-most hop that is not a trusted proxy', () => {
    expect(clientAddress('10.0.0.1', '203.0.113.9', trusted)).toBe('203.0.113.9');
    expect(clientAddress('10.0.0.1', '203.0.113.9, 198.51.100.7', trusted)).toBe('198.51.100.7');
    expect(clientAddress('10.0.0.1', '198.51.100.7, 203.0.113.9, 10.1.2.3', trusted)).toBe('203.0.113.9');
  });

  it('stops at the nearest trusted proxy when a hop cannot be read or the header runs out', () => {
    expect(clientAddress('10.0.0.1', 'not-an-ip, 10.1.2.3', trusted)).toBe('10.1.2.3');
    expect(clientAddress('10.0.0.1', '10.1.2.3', trusted)).toBe('10.1.2.3');
    expect(clientAddress('10.0.0.1', undefined, trusted)).toBe('10.0.0.1');
  });

  it('refuses a TRUSTED_PROXIES entry that is not an address or range', () => {
    expect(parseTrustedProxies(undefined)).toEqual([]);
    expect(parseTrustedProxies(' ')).toEqual([]);
    expect(() => parseTrustedProxies('10.0.0.1, loadbalancer')).toThrow('TRUSTED_PROXIES: "loadbalancer" is not an IP address or CIDR range');
  });
});
