import { isIP } from 'node:net';
import { canonicalAddress } from '../http/addressRules.js';

/**
 * The client as the throttles count it: an IPv4 address as it is, an IPv6 client by its /64. One
 * subscriber line or phone is handed a whole /64, so counting single IPv6 addresses would let one
 * attacker rotate through 2^64 of them, each with a fresh allowance.
 */
export function throttleAddress(ip: string): string {
  const address = canonicalAddress(ip) ?? ip;
  if (isIP(address) !== 6) return address;
  return `${expandIpv6(address).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (canonical, without a zone), zeros written out. */
function expandIpv6(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((group) => group.replace(/^0+(?=.)/, ''));
}
