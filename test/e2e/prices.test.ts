import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TOKEN_LISTINGS } from '../../src/arguments/token-symbol.js';
import { expectEnvelope } from '../helpers/error-envelope.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const PRICE_SOURCES = ['coingecko', 'defillama-coins', 'coinbase'] as const;
const ETH_PRICE = {
  symbol: 'ETH',
  price: 3012.45,
  change24h: -1.2304518825,
  volume24h: 14873920155.20871,
  marketCap: 362518734102.4471,
};

/** 50 listed symbols, LUSD (which CoinGecko's recording leaves out) excepted; some in lower case. */
const FIFTY = TOKEN_LISTINGS.filter((t) => t.symbol !== 'LUSD')
  .slice(0, 50)
  .map((t, i) => (i % 3 === 0 ? t.symbol.toLowerCase() : t.symbol));

interface SourceLine {
  source: string;
  price: number | null;
  ageSeconds: number | null;
  quotedAt: string | null;
  included: boolean;
  reason: string | null;
}

const requestsPerSource = (server: TestServer) =>
  Object.fromEntries(PRICE_SOURCES.map((s) => [s, server.replay!.requestCount(s)]));

describe('prices: REST and GraphQL over the three price sources (recorded replies)', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Many calls from one IP; an upstream deadline that a busy machine's replies fit in (at 300 ms two of the smart
    // price's three sources timed out under load), still well short of the slow scenario's 6 s.
    server = await startTestServer({
      ANONYMOUS_DAILY_LIMIT: '100000',
      ANONYMOUS_PER_MINUTE_LIMIT: '100000',
      UPSTREAM_TIMEOUT_MS: '1500',
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    for (const source of PRICE_SOURCES) server.replay!.setScenario(source, null);
    server.replay!.resetCounts();
  });

  it('GET /api/price/ETH answers symbol, price, 24 h change, volume and market cap, light tier, 30 s cacheable', async () => {
    const res = await server.get('/api/price/ETH');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(ETH_PRICE);
    expect(res.headers.get('cache-control')).toBe('public, max-age=30');
    expect(res.headers.get('x-ratelimit-tier')).toBe('light');
    expect(requestsPerSource(server)).toEqual({ coingecko: 1, 'defillama-coins': 0, coinbase: 0 });

    // Within the 30 s freshness a repeat is served from cache; the symbol is read in any case.
    const again = await server.get('/api/price/eth');
    expect(await again.json()).toEqual(ETH_PRICE);
    expect(server.replay!.requestCount('coingecko')).toBe(1);
  });

  it('an unknown symbol is 404 NOT_FOUND in the full envelope, naming it', async () => {
    const body = await expectEnvelope(await server.get('/api/price/NOPECOIN'), 404, 'NOT_FOUND');
    expect(body.message).toMatch(/NOPECOIN/);
    expect(server.replay!.requestCount()).toBe(0);
  });

  it('a listed token the upstream has no quote for is 404', async () => {
    await expectEnvelope(await server.get('/api/price/LUSD'), 404, 'NOT_FOUND');
  });

  it('a symbol that is not 1–15 letters, digits, dots or dashes is 400 INVALID_PARAMETER', async () => {
    for (const bad of ['ETH$', 'ABCDEFGHIJKLMNOP', 'ET H', 'ÉTH']) {
      await expectEnvelope(await server.get(`/api/price/${encodeURIComponent(bad)}`), 400, 'INVALID_PARAMETER');
    }
    await expectEnvelope(await server.get('/api/price/smart/ETH%24'), 400, 'INVALID_PARAMETER');
  });

  it('GET /api/price/batch of 50 symbols answers an array of 50 in order with ONE upstream request', async () => {
    const res = await server.get(`/api/price/batch?symbols=${FIFTY.join(',')}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-tier')).toBe('heavy');
    const prices = (await res.json()) as { symbol: string; price: number; change24h: number }[];
    expect(prices).toHaveLength(50);
    expect(prices.map((p) => p.symbol)).toEqual(FIFTY.map((s) => s.toUpperCase()));
    expect(prices[0]).toEqual(ETH_PRICE);
    for (const p of prices) {
      expect(p.price).toBeGreaterThan(0);
      expect(typeof p.change24h).toBe('number');
    }
    expect(requestsPerSource(server)).toEqual({ coingecko: 1, 'defillama-coins': 0, coinbase: 0 });
  });

  it('GET /api/price/batch refuses more than 50 symbols, none, and bad ones (400); an unknown one is 404', async () => {
    const listed = TOKEN_LISTINGS.map((t) => t.symbol);
    await expectEnvelope(
      await server.get(`/api/price/batch?symbols=${listed.slice(0, 51).join(',')}`),
      400,
      'INVALID_PARAMETER',
    );
    await expectEnvelope(await server.get('/api/price/batch?symbols='), 400, 'INVALID_PARAMETER');
    await expectEnvelope(await server.get('/api/price/batch'), 400, 'INVALID_PARAMETER');
    await expectEnvelope(await server.get('/api/price/batch?symbols=ETH,B%24D'), 400, 'INVALID_PARAMETER');
    const unknown = await expectEnvelope(await server.get('/api/price/batch?symbols=ETH,NOPECOIN'), 404, 'NOT_FOUND');
    expect(unknown.message).toMatch(/NOPECOIN/);
    expect(server.replay!.requestCount()).toBe(0);
  });

  it('GET /api/price/batch answers a repeated symbol once', async () => {
    const prices = (await (await server.get('/api/price/batch?symbols=ETH,BTC,eth')).json()) as { symbol: string }[];
    expect(prices.map((p) => p.symbol)).toEqual(['ETH', 'BTC']);
  });

  it('GET /api/price/smart/ETH is the median of three sources, each listed with its quote and age', async () => {
    const res = await server.get('/api/price/smart/ETH');
    expect(res.status).toBe(200);
    const smart = await res.json();
    expect(smart).toMatchObject({
      symbol: 'ETH',
      price: 3012.45,
      sourcesUsed: 3,
      sourcesAsked: 3,
      outlierThresholdPercent: 5,
    });
    const lines = smart.sources as SourceLine[];
    expect(lines.map((l) => [l.source, l.price, l.included, l.reason])).toEqual([
      ['coingecko', 3012.45, true, null],
      ['defillama-coins', 3010.12, true, null],
      ['coinbase', 3013.9, true, null],
    ]);
    // CoinGecko and DefiLlama stamp their quotes (the recording is from 2025-06-02); Coinbase's spot reply has no time.
    expect(lines[0]).toMatchObject({ quotedAt: '2025-06-02T11:59:47.000Z' });
    expect(lines[0]!.ageSeconds).toBeGreaterThan(0);
    expect(lines[1]!.ageSeconds).toBeGreaterThan(lines[0]!.ageSeconds!);
    expect(lines[2]).toMatchObject({ quotedAt: null, ageSeconds: null });
    // One request per source; CoinGecko's ETH quote may already sit in the 30 s cache (GET /api/price/ETH above).
    expect(requestsPerSource(server)).toMatchObject({ 'defillama-coins': 1, coinbase: 1 });
    expect(server.replay!.requestCount('coingecko')).toBeLessThanOrEqual(1);
  });

  it('a source that is down is left out of the smart price and listed as unavailable', async () => {
    server.replay!.setScenario('coinbase', 'down');
    const res = await server.get('/api/price/smart/UNI');
    expect(res.status).toBe(200);
    const smart = await res.json();
    expect(smart).toMatchObject({ symbol: 'UNI', sourcesUsed: 2, sourcesAsked: 3 });
    expect(smart.sources.find((l: SourceLine) => l.source === 'coinbase')).toMatchObject({
      price: null,
      included: false,
      reason: 'unavailable',
    });
  });

  it('a source that is too slow is left out as unavailable: the answer comes at its deadline, not after its reply', async () => {
    server.replay!.setScenario('defillama-coins', 'slow');
    const smart = await (await server.get('/api/price/smart/AAVE')).json();
    // The slow reply comes after 6 s; the health page names the deadline as what ended the wait for it.
    const { sources } = await (await server.get('/api/sources/health')).json();
    expect(sources.find((s: { name: string }) => s.name === 'defillama-coins').lastError).toMatch(/^timed out after/);
    expect(smart.sourcesUsed).toBe(2);
    expect(smart.sources.find((l: SourceLine) => l.source === 'defillama-coins')).toMatchObject({
      included: false,
      reason: 'unavailable',
    });
  });

  it('a quote more than 5 % from the median is left out as an outlier', async () => {
    server.replay!.setScenario('coinbase', 'outlier');
    const smart = await (await server.get('/api/price/smart/LINK')).json();
    const coinbase = smart.sources.find((l: SourceLine) => l.source === 'coinbase');
    expect(coinbase).toMatchObject({ included: false, reason: 'outlier' });
    expect(coinbase.deviationPercent).toBeGreaterThan(5);
    expect(smart.sourcesUsed).toBe(2);
    expect(smart.price).toBeCloseTo(14.82, 1);
  });

  it('a token Coinbase does not list is priced by the others, Coinbase listed as unlisted and never asked', async () => {
    const smart = await (await server.get('/api/price/smart/matic')).json();
    expect(smart).toMatchObject({ symbol: 'MATIC', sourcesUsed: 2 });
    expect(smart.sources.find((l: SourceLine) => l.source === 'coinbase')).toMatchObject({
      included: false,
      reason: 'unlisted',
    });
    expect(server.replay!.requestCount('coinbase')).toBe(0);
  });

  it('GET /api/price/history/ETH gives [unix ms, price] pairs; days is 1–365, default 7', async () => {
    const day = await (await server.get('/api/price/history/ETH?days=1')).json();
    expect(day).toMatchObject({ symbol: 'ETH', days: 1, granularity: '5m' });
    expect(day.prices.length).toBeGreaterThan(280);
    for (const point of day.prices) {
      expect(point).toHaveLength(2);
      expect(point[0]).toBeGreaterThan(1.7e12);
      expect(point[1]).toBeGreaterThan(0);
    }
    expect(day.prices.at(-1)[1]).toBe(3012.45);

    const week = await (await server.get('/api/price/history/eth')).json();
    expect(week).toMatchObject({ symbol: 'ETH', days: 7, granularity: 'hourly' });
    const year = await (await server.get('/api/price/history/ETH?days=365')).json();
    expect(year.granularity).toBe('daily');

    for (const bad of ['0', '366', '1.5', 'week']) {
      await expectEnvelope(await server.get(`/api/price/history/ETH?days=${bad}`), 400, 'INVALID_PARAMETER');
    }
    await expectEnvelope(await server.get('/api/price/history/NOPECOIN'), 404, 'NOT_FOUND');
  });

  it('GET /api/market/trending lists trending coins in order, limit 1–100 (default 10)', async () => {
    const five = await (await server.get('/api/market/trending?limit=5')).json();
    expect(five).toHaveLength(5);
    expect(five[0]).toMatchObject({ rank: 1, id: 'hyperliquid', symbol: 'HYPE', name: 'Hyperliquid', price: 33.82 });
    expect(await (await server.get('/api/market/trending')).json()).toHaveLength(10);
    expect(await (await server.get('/api/market/trending?limit=100')).json()).toHaveLength(15);
    await expectEnvelope(await server.get('/api/market/trending?limit=0'), 400, 'INVALID_PARAMETER');
  });

  it('POST /graphql gives the same data; a batch of fields asks each upstream once (Coinbase once per pair)', async () => {
    // 48 + 2 = 50 coins no other test asks for together: one DataLoader batch, no cache hit.
    const batch = FIFTY.slice(0, 48);
    expect(batch.some((s) => ['shib', 'pepe'].includes(s.toLowerCase()))).toBe(false);
    const query = `{
      tokenPrice(symbol: "ETH") { symbol price change24h volume24h marketCap }
      tokenPrices(symbols: ${JSON.stringify(batch)}) { symbol price }
      shib: smartPrice(symbol: "SHIB") { symbol price sourcesUsed }
      pepe: smartPrice(symbol: "PEPE") { symbol price sourcesUsed }
    }`;
    const res = await server.post('/graphql', { query });
    expect(res.status).toBe(200);
    const { data, errors } = await res.json();
    expect(errors).toBeUndefined();
    expect(data.tokenPrice).toEqual(ETH_PRICE);
    expect(data.tokenPrices).toHaveLength(48);
    expect(data.shib).toMatchObject({ symbol: 'SHIB', sourcesUsed: 3 });
    expect(data.pepe).toMatchObject({ symbol: 'PEPE', sourcesUsed: 3 });
    // One simple/price call for all 50 coins, one prices/current call for SHIB and PEPE, one spot call per pair.
    expect(requestsPerSource(server)).toEqual({ coingecko: 1, 'defillama-coins': 1, coinbase: 2 });
  });

  it('POST /graphql reports an unknown symbol with its code, and a bad one as INVALID_PARAMETER', async () => {
    const { data, errors } = await (
      await server.post('/graphql', { query: '{ a: tokenPrice(symbol: "NOPECOIN") { price } }' })
    ).json();
    expect(data.a).toBeNull();
    expect(errors[0].extensions).toMatchObject({ code: 'NOT_FOUND' });
    const bad = await (await server.post('/graphql', { query: '{ tokenPrices(symbols: []) { price } }' })).json();
    expect(bad.errors[0].extensions).toMatchObject({ code: 'INVALID_PARAMETER' });
  });

  it('GET /api/sources/health lists the three price sources as local (the replay)', async () => {
    const { sources } = await (await server.get('/api/sources/health')).json();
    for (const name of PRICE_SOURCES) {
      expect(sources.find((s: { name: string }) => s.name === name)).toMatchObject({ kind: 'prices', mode: 'local' });
    }
  });

  // Last: these open CoinGecko's circuit breaker for the rest of the run.
  it('CoinGecko down: a single-source route is 503 SERVICE_UNAVAILABLE in the full envelope', async () => {
    server.replay!.setScenario('coingecko', 'down');
    const body = await expectEnvelope(await server.get('/api/price/DAI'), 503, 'SERVICE_UNAVAILABLE');
    expect(body.message).toMatch(/coingecko/);
    await expectEnvelope(await server.get('/api/price/batch?symbols=DAI,USDC,USDT'), 503, 'SERVICE_UNAVAILABLE');
  });

  it('CoinGecko down: the smart price still answers from DefiLlama and Coinbase', async () => {
    server.replay!.setScenario('coingecko', 'down');
    const smart = await (await server.get('/api/price/smart/ARB')).json();
    expect(smart.sourcesUsed).toBe(2);
    expect(smart.sources[0]).toMatchObject({ source: 'coingecko', included: false, reason: 'unavailable' });
    const health = await (await server.get('/api/sources/health')).json();
    expect(health.sources.find((s: { name: string }) => s.name === 'coingecko').state).not.toBe('up');
  });
});
