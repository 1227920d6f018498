import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { anonymousNetwork } from '../../src/access/client-address.js';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { proxyTrust } from '../../src/http/trusted-proxies.js';

/** request.ip as Fastify resolves it under a TRUST_PROXY value, for a peer and the X-Forwarded-For it sent. */
async function clientIp(trust: string, peer: string, xff?: string): Promise<string> {
  const app = Fastify({ trustProxy: proxyTrust(loadConfig({ TRUST_PROXY: trust }).trustProxy) });
  app.get('/', async (request) => ({ ip: request.ip }));
  const res = await app.inject({
    url: '/',
    remoteAddress: peer,
    headers: xff === undefined ? {} : { 'x-forwarded-for': xff },
  });
  await app.close();
  return (res.json() as { ip: string }).ip;
}

describe('TRUST_PROXY: which hops are believed about the client address (README "Running behind a proxy")', () => {
  it('reads true, false, a hop count, and lists of addresses, CIDR ranges and the names loopback, linklocal, uniquelocal', () => {
    expect(loadConfig({}).trustProxy).toEqual({ kind: 'none' });
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toEqual({ kind: 'all' });
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toEqual({ kind: 'none' });
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toEqual({ kind: 'hops', hops: 2 });
    expect(loadConfig({ TRUST_PROXY: '127.0.0.0/8, 10.0.0.0/8,2001:DB8::/32, 192.0.2.7' }).trustProxy).toEqual({
      kind: 'addresses',
      ranges: ['127.0.0.0/8', '10.0.0.0/8', '2001:db8::/32', '192.0.2.7/32'],
    });
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy).toEqual({
      kind: 'addresses',
      ranges: ['127.0.0.0/8', '::1/128'],
    });
  });

  it('refuses what is not an address, a range, a count or a name at start', () => {
    for (const value of ['yes', '10.0.0.0/33', '127.1', 'proxy.internal', '10.0.0.0/8/1', '::1/129']) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(ConfigError);
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY/);
    }
  });

  it('the caller is the rightmost address not trusted: what a client writes left of its proxy does not count', async () => {
    // An appending proxy at 10.0.0.5 saw the client at 203.0.113.9; the client wrote 198.51.100.1 itself.
    const xff = '198.51.100.1, 203.0.113.9';
    expect(await clientIp('10.0.0.0/8', '10.0.0.5', xff)).toBe('203.0.113.9');
    expect(await clientIp('1', '10.0.0.5', xff)).toBe('203.0.113.9');
    expect(await clientIp('2', '10.0.0.5', xff)).toBe('198.51.100.1');
    // A peer that is not a trusted proxy is the caller itself, whatever it sends.
    expect(await clientIp('10.0.0.0/8', '203.0.113.50', xff)).toBe('203.0.113.50');
    expect(await clientIp('false', '10.0.0.5', xff)).toBe('10.0.0.5');
    // A dual-stack socket shows an IPv4 proxy as IPv4-mapped IPv6: still trusted.
    expect(await clientIp('10.0.0.0/8', '::ffff:10.0.0.5', xff)).toBe('203.0.113.9');
  });
});

describe('anonymous callers are counted per address, IPv6 per network', () => {
  it('folds IPv4-mapped IPv6 to IPv4 and writes IPv6 canonically, cut to the /64 by default', () => {
    expect(anonymousNetwork('203.0.113.7', 64)).toBe('203.0.113.7');
    expect(anonymousNetwork('::ffff:203.0.113.7', 64)).toBe('203.0.113.7');
    expect(anonymousNetwork('::FFFF:cb00:7107', 64)).toBe('203.0.113.7');
    const spellings = [
      '2001:db8:1:2::7',
      '2001:DB8:1:2:0:0:0:7',
      '2001:0db8:0001:0002:0000:0000:0000:0007',
      '2001:db8:1:2:0::7',
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:db8:1:2::1',
    ];
    expect(new Set(spellings.map((ip) => anonymousNetwork(ip, 64)))).toEqual(new Set(['2001:db8:1:2::/64']));
    expect(anonymousNetwork('2001:db8:1:3::7', 64)).toBe('2001:db8:1:3::/64');
    expect(anonymousNetwork('2001:db8:1:2::7', 48)).toBe('2001:db8:1::/48');
    expect(anonymousNetwork('2001:DB8::7', 128)).toBe('2001:db8::7');
  });

  it('is null for what is not an IP address', () => {
    for (const value of ['', 'unknown', '203.0.113.7:80', '127.1', '1.2.3.4.5', '[2001:db8::1]']) {
      expect(anonymousNetwork(value, 64), value).toBeNull();
    }
  });

  it('ANONYMOUS_IPV6_PREFIX sets the network size (64 by default)', () => {
    expect(loadConfig({}).anonymousIpv6Prefix).toBe(64);
    expect(loadConfig({ ANONYMOUS_IPV6_PREFIX: '56' }).anonymousIpv6Prefix).toBe(56);
    expect(() => loadConfig({ ANONYMOUS_IPV6_PREFIX: '129' })).toThrow(/ANONYMOUS_IPV6_PREFIX/);
  });
});
