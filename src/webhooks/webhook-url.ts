import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { invalidParameter } from '../errors/api-error.js';

/** Loopback, private, link-local, CGNAT, unspecified, multicast and reserved ranges: never a webhook's target. */
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
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');
}

/** Whether an IP literal is loopback, private, link-local or otherwise not a public host. */
export function isNonPublicAddress(ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return NOT_PUBLIC.check(mapped[1]!, 'ipv4');
  const family = isIP(ip);
  if (family === 0) return true;
  return NOT_PUBLIC.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

const LOCAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i;

/**
 * Refuses a webhook URL the service must not call: unless `allowLocal` (WEBHOOK_ALLOW_LOCAL_URLS), it must be
 * https and its host must be (and resolve to) public addresses only. Checked at creation and again before each
 * attempt, so a name later pointed at a private address is refused too.
 * @example await assertDeliverableUrl('https://hooks.example.org/in', { allowLocal: false })
 */
export async function assertDeliverableUrl(
  raw: string,
  p: { allowLocal: boolean; resolve?: (host: string) => Promise<string[]> },
): Promise<void> {
  const url = new URL(raw);
  if (url.username || url.password) throw invalidParameter('url: must not carry credentials');
  if (p.allowLocal) return;
  if (url.protocol !== 'https:') throw invalidParameter('url: must be https');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    if (isNonPublicAddress(host)) throw invalidParameter('url: private, loopback and link-local hosts are refused');
    return;
  }
  if (LOCAL_NAMES.test(host) || !host.includes('.')) {
    throw invalidParameter('url: private, loopback and link-local hosts are refused');
  }
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
