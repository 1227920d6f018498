import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { TrustProxy } from '../config/trust-proxy.js';

/** Whether the hop at `address` (the socket's peer is hop 0, then X-Forwarded-For from the right) is a trusted proxy. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * Fastify's `trustProxy` for TRUST_PROXY: request.ip is then the rightmost address not trusted. A hop count is a
 * function, since Fastify now ignores a bare number (it cannot check the nearest peer); an address list is matched with
 * ipaddr.js, IPv4-mapped IPv6 peers (`::ffff:10.0.0.1`, a dual-stack socket) as their IPv4 address.
 * @example Fastify({ trustProxy: proxyTrust({ kind: 'hops', hops: 1 }) })
 */
export function proxyTrust(setting: TrustProxy): boolean | ProxyTrust {
  switch (setting.kind) {
    case 'none':
      return false;
    case 'all':
      return true;
    case 'hops':
      return (_address, hop) => hop < setting.hops;
    case 'addresses': {
      const ranges = setting.ranges.map((r) => ipaddr.parseCIDR(r));
      return (address) => {
        if (isIP(address) === 0) return false;
        const parsed = ipaddr.process(address);
        return ranges.some(([network, bits]) => network.kind() === parsed.kind() && parsed.match(network, bits));
      };
    }
  }
}

/**
 * The client address of a request Fastify does not see (a WebSocket upgrade), as Fastify's request.ip with
 * `trustProxy: trust` (proxy-addr's rule): the socket's peer is hop 0, then X-Forwarded-For from the right; the
 * caller is the first hop not trusted, or the leftmost address when every hop is.
 * @example forwardedClient(upgradeRequest, proxyTrust(config.trustProxy)) // '203.0.113.7'
 */
export function forwardedClient(
  request: { socket: { remoteAddress?: string | undefined }; headers: Record<string, string | string[] | undefined> },
  trust: boolean | ProxyTrust,
): string {
  const peer = request.socket.remoteAddress ?? '';
  if (trust === false) return peer;
  const header = request.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
  const hops = [peer, ...forwarded.reverse()];
  for (const [hop, address] of hops.entries()) {
    if (hop === hops.length - 1) return address;
    if (trust !== true && !trust(address, hop)) return address;
  }
  return peer;
}
