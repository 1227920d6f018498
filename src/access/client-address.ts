import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The network an anonymous caller is counted as, or null when `ip` is not an IP address (a proxy's or a client's
 * X-Forwarded-For entry may be any text). IPv4-mapped IPv6 (`::ffff:203.0.113.7`) is its IPv4 address; other IPv6 is
 * canonical (RFC 5952) and cut to its `/ipv6Prefix` network, so the spellings of one address, and the addresses of one
 * subscriber's /64, are one caller.
 * @example anonymousNetwork('2001:DB8:0:0:1::7', 64) // '2001:db8::/64'
 */
export function anonymousNetwork(ip: string, ipv6Prefix: number): string | null {
  if (isIP(ip) === 0) return null;
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const bytes = parsed.toByteArray();
  for (let bit = ipv6Prefix; bit < 128; bit++) bytes[bit >> 3]! &= ~(0x80 >> (bit & 7));
  const network = (ipaddr.fromByteArray(bytes) as ipaddr.IPv6).toRFC5952String();
  return ipv6Prefix === 128 ? network : `${network}/${ipv6Prefix}`;
}
