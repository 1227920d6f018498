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
