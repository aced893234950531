import { BlockList, isIP } from 'node:net';

/**
 * Network addresses as the allow-list and TRUSTED_PROXIES write them: one IPv4 or IPv6 address,
 * or a CIDR range. Everything is kept in one canonical form (IPv6 compressed and lowercased,
 * IPv4-mapped IPv6 written as IPv4), so "2001:DB8:0::1" and "2001:db8::1" are one rule and the
 * address an event's metadata records is the one an admin would type.
 */
const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** The canonical form of a single address, or null when it is not one. */
export function canonicalAddress(input: string): string | null {
  const address = input.trim();
  const mapped = IPV4_MAPPED.exec(address);
  if (mapped && isIP(mapped[1]) === 4) return mapped[1];
  const family = isIP(address);
  if (family === 4) return address;
  if (family !== 6 || address.includes('%')) return null;
  // The URL parser compresses and lowercases IPv6 the way RFC 5952 writes it.
  const compressed = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const remapped = IPV4_MAPPED.exec(compressed);
  return remapped ? remapped[1] : compressed;
}

export interface AddressRule {
  /** As shown and stored: 203.0.113.7, 2001:db8::1 or 203.0.113.0/24. */
  text: string;
  address: string;
  family: 'ipv4' | 'ipv6';
  /** Set for a CIDR range. */
  prefix: number | null;
}

/** Parses an address or CIDR range into its canonical rule, or null when it is neither. */
export function parseAddressRule(input: string): AddressRule | null {
  const [addressPart, prefixPart, extra] = input.trim().split('/');
  if (extra !== undefined || addressPart === undefined) return null;
  const address = canonicalAddress(addressPart);
  if (!address) return null;
  const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
  if (prefixPart === undefined) return { text: address, address, family, prefix: null };
  if (!/^\d{1,3}$/.test(prefixPart)) return null;
  let prefix = Number(prefixPart);
  // An IPv4-mapped range (::ffff:198.51.100.0/120) is the IPv4 range it maps (198.51.100.0/24).
  if (family === 'ipv4' && isIP(addressPart.trim()) === 6) {
    if (prefix < 96) return null;
    prefix -= 96;
  }
  if (prefix > (family === 'ipv4' ? 32 : 128)) return null;
  return { text: `${address}/${prefix}`, address, family, prefix };
}

/** Whether `address` is covered by any of the rules (written as parseAddressRule accepts them). */
export function rulesCover(rules: readonly string[], address: string): boolean {
  const client = canonicalAddress(address);
  if (!client) return false;
  const list = new BlockList();
  for (const text of rules) {
    const rule = parseAddressRule(text);
    if (!rule) continue;
    if (rule.prefix === null) list.addAddress(rule.address, rule.family);
    else list.addSubnet(rule.address, rule.prefix, rule.family);
  }
  return list.check(client, isIP(client) === 4 ? 'ipv4' : 'ipv6');
}
