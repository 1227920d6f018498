import Fastify from 'fastify';
import { createClient as createWsClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { TrustProxy } from '../../src/config/trust-proxy.js';
import { forwardedClient, proxyTrust } from '../../src/http/trusted-proxies.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const ALICE = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const QUERY = `subscription { walletTransfers(addresses: ["${ALICE}"]) { id } }`;

describe('a WebSocket upgrade’s caller is found by the TRUST_PROXY rule request.ip follows', () => {
  const settings: TrustProxy[] = [
    { kind: 'none' },
    { kind: 'all' },
    { kind: 'hops', hops: 1 },
    { kind: 'hops', hops: 2 },
    { kind: 'addresses', ranges: ['127.0.0.0/8', '10.0.0.0/8'] },
  ];
  const requests = [
    { peer: '127.0.0.1', forwarded: undefined },
    { peer: '127.0.0.1', forwarded: '203.0.113.9' },
    { peer: '127.0.0.1', forwarded: '198.51.100.1, 10.1.2.3' },
    { peer: '192.0.2.44', forwarded: '203.0.113.9' },
    { peer: '10.0.0.5', forwarded: '198.51.100.7, 203.0.113.9, 10.9.9.9' },
    { peer: '::ffff:127.0.0.1', forwarded: '203.0.113.9' },
  ];
  for (const setting of settings) {
    it(`as Fastify's request.ip with TRUST_PROXY ${JSON.stringify(setting)}`, async () => {
      const trust = proxyTrust(setting);
      const app = Fastify({ trustProxy: trust });
      app.get('/', async (request) => request.ip);
      try {
        for (const { peer, forwarded } of requests) {
          const headers = forwarded === undefined ? {} : { 'x-forwarded-for': forwarded };
          const res = await app.inject({ method: 'GET', url: '/', remoteAddress: peer, headers });
          expect(forwardedClient({ socket: { remoteAddress: peer }, headers }, trust), `${peer} ${forwarded}`).toBe(
            res.body,
          );
        }
      } finally {
        await app.close();
      }
    });
  }
});

describe('graphql-ws behind a trusted proxy (TRUST_PROXY=loopback)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: 'loopback', LIVE_MAX_SUBSCRIPTIONS_PER_CALLER: '1' });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A graphql-ws client whose connections come through the proxy on this machine, for the client at `address`. */
  const forwardedFor = (address: string) =>
    createWsClient({
      url: `${server.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: class extends WebSocket {
        constructor(url: string, protocols?: string | string[]) {
          super(url, protocols, { headers: { 'x-forwarded-for': address } });
        }
      },
      retryAttempts: 0,
    });

  async function openSubscriptions(count: number): Promise<void> {
    for (let waited = 0; server.live.open() !== count; waited += 20) {
      if (waited > 10_000) throw new Error(`${server.live.open()} subscriptions open, not ${count}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('the per-caller cap counts the forwarded client, not the proxy: another client behind it is admitted', async () => {
    const first = forwardedFor('203.0.113.1');
    const again = forwardedFor('203.0.113.1');
    const other = forwardedFor('203.0.113.2');
    try {
      const held = first.iterate({ query: QUERY });
      const pending = held.next().catch(() => undefined);
      await openSubscriptions(1);

      // The same client through the proxy again: past its cap of one.
      const refused = await again
        .iterate({ query: QUERY })
        .next()
        .catch((err: unknown) => err);
      expect(refused).toEqual([
        expect.objectContaining({ extensions: expect.objectContaining({ code: 'RATE_LIMITED' }) }),
      ]);

      // Another client through the same proxy: its own cap.
      const admitted = other.iterate({ query: QUERY });
      const next = admitted.next();
      await openSubscriptions(2);
      await server.live.bus.publish([
        {
          id: 'evt_ws_proxy_1',
          type: 'wallet.transfer',
          timestamp: Date.now(),
          data: { from: ALICE, to: ALICE, value: '1' },
        },
      ]);
      expect((await next).value).toEqual({ data: { walletTransfers: { id: 'evt_ws_proxy_1' } } });
      await admitted.return?.();
      await held.return?.();
      await pending;
      await openSubscriptions(0);
    } finally {
      await Promise.all([first.dispose(), again.dispose(), other.dispose()]);
    }
  });
});
