import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
export type Cidr = [Address, number];

/** Parse a comma-separated CIDR list; a bare address is a single-host range. Throws naming the bad entry. */
export function parseCidrList(text: string): Cidr[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      if (entry.includes('/')) {
        if (!ipaddr.isValidCIDR(entry)) throw new Error(`"${entry}" is not a CIDR range`);
        return normaliseCidr(ipaddr.parseCIDR(entry));
      }
      if (!ipaddr.isValid(entry)) throw new Error(`"${entry}" is not an IP address`);
      const addr = ipaddr.process(entry);
      return [addr, addr.kind() === 'ipv4' ? 32 : 128];
    });
}

/** `::ffff:10.0.0.0/104` and `10.0.0.0/8` must match the same callers, so mapped ranges become IPv4 ones. */
function normaliseCidr([addr, bits]: Cidr): Cidr {
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96)
    return [(addr as ipaddr.IPv6).toIPv4Address(), bits - 96];
  return [addr, bits];
}

/** An address as text, or undefined when it is not one (a forged header may hold anything). */
export function parseAddress(text: string | undefined): Address | undefined {
  const trimmed = text?.trim().replace(/^\[(.*)\]$/, '$1');
  if (!trimmed || !ipaddr.isValid(trimmed)) return undefined;
  // Dual-stack sockets report IPv4 callers as ::ffff:a.b.c.d; process() turns them back into IPv4.
  return ipaddr.process(trimmed);
}

export const inRanges = (addr: Address, ranges: readonly Cidr[]): boolean =>
  ranges.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits));

/**
 * The caller's address. The socket is the only thing a caller cannot forge, so it is the
 * answer unless it is one of our own proxies; only then is X-Forwarded-For read, from the
 * right (entries our proxies appended) to the first entry no trusted proxy wrote. Entries to
 * the left of that one are the client's own claims and are ignored. Undefined means unknown,
 * which callers treat as outside.
 */
export function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | undefined,
  trustedProxies: readonly Cidr[],
): Address | undefined {
  const socket = parseAddress(socketAddress);
  if (!socket || !inRanges(socket, trustedProxies) || !forwardedFor) return socket;
  const hops = forwardedFor
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = parseAddress(hops[i]);
    if (!hop || !inRanges(hop, trustedProxies)) return hop;
  }
  // Every hop is a trusted proxy: the left-most one is where the request entered.
  return hops.length ? parseAddress(hops[0]) : socket;
}
