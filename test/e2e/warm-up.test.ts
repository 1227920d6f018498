import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../helpers/test-server.js';

/** A stand-in for every live HTTP upstream: it records each request it gets and answers 503. */
let upstream: Server;
const received: string[] = [];
let upstreamUrl: string;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', () => resolve()));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});

/** Every HTTP upstream the prices, Farcaster and DeFi sources call, made live at the recording server. */
const liveUpstreams = () => ({
  COINGECKO_API_URL: upstreamUrl,
  DEFILLAMA_COINS_URL: upstreamUrl,
  COINBASE_API_URL: upstreamUrl,
  NEYNAR_API_URL: upstreamUrl,
  NEYNAR_API_KEY: 'warm-up-test',
  DEFILLAMA_API_URL: upstreamUrl,
  DEFILLAMA_YIELDS_URL: upstreamUrl,
  GROWTHEPIE_API_URL: upstreamUrl,
  SOURCIFY_API_URL: upstreamUrl,
});

describe('the warm-up after listening', () => {
  it('builds the ENS tables without calling any live upstream', async () => {
    const server = await startTestServer(liveUpstreams());
    try {
      const outcome = await server.warmedUp;
      expect(outcome.ensTables).toBe(true);
      expect(received).toEqual([]);
      // The sources are the live ones: a request that needs a price reaches the recording server.
      expect((await server.get('/api/price/ETH')).status).toBe(503);
      expect(received.length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('does not run when the server closes before its delay is over', async () => {
    const server = await startTestServer();
    const closedAt = performance.now();
    await server.close();
    expect(performance.now() - closedAt).toBeLessThan(5_000);
    expect(await server.warmedUp).toEqual({ ensTables: false });
  }, 60_000);
});
