import { canonicalAddress, parseAddressRule, rulesCover } from './addressRules.js';

/**
 * TRUSTED_PROXIES: comma-separated addresses or CIDR ranges of the proxies in front of the API
 * (a load balancer, an ingress). Anything unparseable stops the start with a clear message,
 * because a typo here would silently trust the wrong hop or none.
 */
export function parseTrustedProxies(value: string | undefined): string[] {
  if (value === undefined || value.trim() === '') return [];
  return value.split(',').map((entry) => {
    const rule = parseAddressRule(entry);
    if (!rule) throw new Error(`TRUSTED_PROXIES: "${entry.trim()}" is not an IP address or CIDR range`);
    return rule.text;
  });
}

/**
 * The address a request really comes from. The socket's peer, unless that peer is a trusted
 * proxy: then X-Forwarded-For is read from the right (each proxy appends the address it saw) and
 * the first hop that is not itself a trusted proxy is the client. Hops further left were written
 * by the client and prove nothing. An unreadable hop ends the walk at the nearest trusted proxy.
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | undefined, trustedProxies: readonly string[]): string {
  let client = canonicalAddress(peer ?? '') ?? peer ?? '';
  if (trustedProxies.length === 0 || !forwardedFor) return client;
  const hops = forwardedFor
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean);
  while (rulesCover(trustedProxies, client)) {
    const hop = hops.pop();
    const address = hop === undefined ? null : canonicalAddress(hop);
    if (!address) return client;
    client = address;
  }
  return client;
}
