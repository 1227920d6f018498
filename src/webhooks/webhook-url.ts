import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { invalidParameter } from '../errors/api-error.js';

/**
 * Loopback, private, link-local, CGNAT, unspecified, multicast and reserved ranges: never a webhook's target. IPv6
 * forms that carry an IPv4 address inside (IPv4-compatible `::a.b.c.d`, NAT64, 6to4, Teredo, IPv4-mapped in any
 * spelling) are refused whole: a gateway would turn them into whatever IPv4 address they hold.
 */
const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  // Unspecified, loopback and IPv4-compatible (::a.b.c.d). IPv4-mapped is folded to IPv4 before the check: as a rule
  // here, ::ffff:0:0/96 would match every IPv4 address (BlockList checks IPv4 against mapped rules).
  ['::', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');
}

/** Whether an IP literal is loopback, private, link-local or otherwise not a public host; any non-IP text is too. */
export function isNonPublicAddress(ip: string): boolean {
  const literal = ip.replace(/%.*$/, '');
  if (isIP(literal) === 0) return true;
  // IPv4-mapped IPv6 in any spelling (::ffff:7f00:1 as well as ::ffff:127.0.0.1) is checked as its IPv4 address.
  const address = ipaddr.process(literal);
  return NOT_PUBLIC.check(address.toString(), address.kind());
}

const LOCAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i;

/**
 * What a webhook URL must be before any name in it is resolved: no credentials; unless `allowLocal`, https, and an IP
 * literal or a name that is public. Returns the host when it is a name (for {@link assertDeliverableUrl} to resolve,
 * or for the connection to resolve and check once: public-address-lookup.ts), else undefined.
 * @example assertDeliverableShape('https://hooks.example.org/in', { allowLocal: false }) // 'hooks.example.org'
 */
export function assertDeliverableShape(raw: string, p: { allowLocal: boolean }): string | undefined {
  const url = new URL(raw);
  if (url.username || url.password) throw invalidParameter('url: must not carry credentials');
  if (p.allowLocal) return undefined;
  if (url.protocol !== 'https:') throw invalidParameter('url: must be https');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    if (isNonPublicAddress(host)) throw invalidParameter('url: private, loopback and link-local hosts are refused');
    return undefined;
  }
  if (LOCAL_NAMES.test(host) || !host.includes('.')) {
    throw invalidParameter('url: private, loopback and link-local hosts are refused');
  }
  return host;
}

/**
 * Refuses a webhook URL the service must not call: unless `allowLocal` (WEBHOOK_ALLOW_LOCAL_URLS), it must be
 * https and its host must be (and resolve to) public addresses only. Checked at creation and update; a delivery
 * checks the addresses its connection is made to instead (public-address-lookup.ts), since a name may answer
 * differently to a second lookup (DNS rebinding).
 * @example await assertDeliverableUrl('https://hooks.example.org/in', { allowLocal: false })
 */
export async function assertDeliverableUrl(
  raw: string,
  p: { allowLocal: boolean; resolve?: (host: string) => Promise<string[]> },
): Promise<void> {
  const host = assertDeliverableShape(raw, p);
  if (host === undefined) return;
  const resolve = p.resolve ?? (async (h: string) => (await lookup(h, { all: true })).map((a) => a.address));
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    throw invalidParameter(`url: ${host} does not resolve`);
  }
  if (addresses.length === 0 || addresses.some(isNonPublicAddress)) {
    throw invalidParameter(`url: ${host} resolves to a private, loopback or link-local address`);
  }
}
