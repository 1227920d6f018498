import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectEnvelope } from '../helpers/error-envelope.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const DEFI_SOURCES = ['defillama', 'defillama-yields', 'defillama-pro', 'debank', 'growthepie'] as const;
const VITALIK = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

interface Page<T> {
  data: T[];
  pagination: { limit: number; offset: number; total: number; hasMore: boolean };
}
interface Protocol {
  name: string;
  slug: string;
  tvl: number | null;
  chains: string[];
}
interface Pool {
  pool: string;
  chain: string;
  project: string;
  tvlUsd: number;
  apy: number | null;
}

const upstreamCalls = (server: TestServer) =>
  Object.fromEntries(DEFI_SOURCES.map((s) => [s, server.replay!.requestCount(s)]));

describe('DeFi: protocols, yields, protocol stats, positions, active users and events over recorded replies', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      ANONYMOUS_DAILY_LIMIT: '1000000',
      ANONYMOUS_PER_MINUTE_LIMIT: '1000000',
      // Roomy for a busy machine: every upstream here answers.
      UPSTREAM_TIMEOUT_MS: '3000',
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    for (const source of DEFI_SOURCES) server.replay!.setScenario(source, null);
    server.replay!.resetCounts();
  });

  it('GET /api/defi/protocols pages 50 protocols by TVL; pages 1 and 2 within 5 minutes cost ONE upstream call', async () => {
    const first = await server.get('/api/defi/protocols');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-tier')).toBe('medium');
    expect(first.headers.get('cache-control')).toBe('public, max-age=300');
    const page1 = (await first.json()) as Page<Protocol>;
    expect(page1.data).toHaveLength(50);
    expect(page1.pagination).toEqual({ limit: 50, offset: 0, total: 114, hasMore: true });
    const tvls = page1.data.map((p) => p.tvl ?? -1);
    expect(tvls).toEqual([...tvls].sort((a, b) => b - a));

    const page2 = (await (await server.get('/api/defi/protocols?offset=50&limit=50')).json()) as Page<Protocol>;
    expect(page2.pagination).toEqual({ limit: 50, offset: 50, total: 114, hasMore: true });
    expect(page2.data[0]!.tvl!).toBeLessThanOrEqual(page1.data[49]!.tvl!);
    const slugs = new Set([...page1.data, ...page2.data].map((p) => p.slug));
    expect(slugs.size).toBe(100);

    const last = (await (await server.get('/api/defi/protocols?offset=100&limit=100')).json()) as Page<Protocol>;
    expect(last.data).toHaveLength(14);
    expect(last.pagination.hasMore).toBe(false);
    expect(upstreamCalls(server)).toMatchObject({ defillama: 1 });
  });

  it('protocols pagination refuses a limit outside 1–100 and a negative offset (400), past the end is an empty page', async () => {
    for (const bad of ['limit=0', 'limit=101', 'limit=ten', 'offset=-1', 'offset=1.5']) {
      await expectEnvelope(await server.get(`/api/defi/protocols?${bad}`), 400, 'INVALID_PARAMETER');
    }
    const beyond = (await (await server.get('/api/defi/protocols?offset=5000')).json()) as Page<Protocol>;
    expect(beyond).toEqual({ data: [], pagination: { limit: 50, offset: 5000, total: 114, hasMore: false } });
  });

  it('GET /api/defi/protocol/{name} gives TVL now, per chain (no borrowed sub-totals) and 30 days of history, by slug or name', async () => {
    const res = await server.get('/api/defi/protocol/aave-v3');
    expect(res.status).toBe(200);
    const stats = await res.json();
    expect(stats).toMatchObject({
      name: 'AAVE V3',
      slug: 'aave-v3',
      category: 'Lending',
      symbol: 'AAVE',
      mcap: 3915000000.25,
    });
    const chainNames = stats.chainTvls.map((c: { chain: string }) => c.chain);
    expect(chainNames).toEqual(
      expect.arrayContaining(['Ethereum', 'Arbitrum', 'Base', 'Optimism', 'Polygon', 'Avalanche']),
    );
    expect(chainNames.some((c: string) => /borrowed/i.test(c))).toBe(false);
    const chainSum = stats.chainTvls.reduce((s: number, c: { tvl: number }) => s + c.tvl, 0);
    expect(chainSum).toBeCloseTo(stats.tvl, 0);
    expect(stats.tvlHistory).toHaveLength(30);
    expect(stats.tvlHistory.at(-1)).toMatchObject({ date: '2025-11-20T00:00:00.000Z', tvl: stats.tvl });

    for (const name of ['AAVE%20V3', 'aave%20v3', 'AAVE-V3']) {
      expect((await (await server.get(`/api/defi/protocol/${name}`)).json()).slug).toBe('aave-v3');
    }
    // One list call and one detail call; the repeats are served from cache.
    expect(upstreamCalls(server)).toMatchObject({ defillama: 1 });
  });

  it('an unknown protocol is 404 without asking DefiLlama for its detail; a malformed name is 400', async () => {
    await server.get('/api/defi/protocols');
    server.replay!.resetCounts();
    await expectEnvelope(await server.get('/api/defi/protocol/no-such-protocol'), 404, 'NOT_FOUND');
    expect(server.replay!.requestCount('defillama')).toBe(0);
    for (const bad of ['%3Cscript%3E', '..%2F..%2Fetc', `${'a'.repeat(81)}`]) {
      await expectEnvelope(await server.get(`/api/defi/protocol/${bad}`), 400, 'INVALID_PARAMETER');
    }
  });

  it('GET /api/yields pages pools by TVL (default 50) and filters by chain and protocol, from one upstream call', async () => {
    const page = (await (await server.get('/api/yields')).json()) as Page<Pool>;
    expect(page.data).toHaveLength(50);
    expect(page.pagination).toEqual({ limit: 50, offset: 0, total: 130, hasMore: true });
    const tvls = page.data.map((p) => p.tvlUsd);
    expect(tvls).toEqual([...tvls].sort((a, b) => b - a));
    const lido = page.data.find((p) => p.pool === '747c1d2a-c668-4682-b9f9-296708a3dd90');
    expect(lido).toMatchObject({
      chain: 'Ethereum',
      project: 'lido',
      symbol: 'STETH',
      apy: 2.637,
      apyReward: null,
      stablecoin: false,
    });

    const base = (await (await server.get('/api/yields?chain=base&limit=100')).json()) as Page<Pool>;
    expect(base.data.length).toBeGreaterThan(0);
    expect(base.data.every((p) => p.chain === 'Base')).toBe(true);
    expect(base.pagination.total).toBe(base.data.length);
    const aave = (await (await server.get('/api/yields?project=aave-v3&chain=8453&limit=100')).json()) as Page<Pool>;
    expect(aave.data.every((p) => p.project === 'aave-v3' && p.chain === 'Base')).toBe(true);
    await expectEnvelope(await server.get('/api/yields?chain=solana'), 400, 'INVALID_PARAMETER');
    await expectEnvelope(await server.get('/api/yields?limit=101'), 400, 'INVALID_PARAMETER');
    expect(upstreamCalls(server)).toMatchObject({ 'defillama-yields': 1 });
  });

  it("GET /api/defi/positions/{address} lists a wallet's positions on every chain, largest net value first, with totals", async () => {
    const res = await server.get(`/api/defi/positions/${VITALIK}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.address).toBe(VITALIK);
    expect(
      body.positions.map((p: { protocol: string; chain: string; kind: string }) => [p.protocol, p.chain, p.kind]),
    ).toEqual([
      ['Aave V3', 'ethereum', 'Lending'],
      ['Uniswap V3', 'ethereum', 'Liquidity Pool'],
      ['Aerodrome', 'base', 'Locked'],
    ]);
    expect(body).toMatchObject({ totalNetUsd: 29093.65, totalAssetUsd: 37094.85, totalDebtUsd: 8001.2 });
    expect(body.positions[0]).toMatchObject({
      assetUsd: 30120.5,
      debtUsd: 8001.2,
      healthRate: 3.0108,
      supplied: [{ symbol: 'WETH', amount: 10, price: 3012.05, valueUsd: 30120.5 }],
      borrowed: [{ symbol: 'USDC', amount: 8001.2 }],
    });
    expect(body.positions[1].rewards).toEqual([expect.objectContaining({ symbol: 'USDC', amount: 12.5 })]);

    // The address is sent lower-case: any case of the same wallet is one upstream call.
    await server.get(`/api/defi/positions/${VITALIK.toLowerCase()}`);
    expect(server.replay!.requestCount('debank')).toBe(1);
  });

  it('a wallet without positions answers an empty list; a malformed address is 400 and reaches no upstream', async () => {
    const empty = await (await server.get('/api/defi/positions/0x000000000000000000000000000000000000dEaD')).json();
    expect(empty).toEqual({
      address: '0x000000000000000000000000000000000000dEaD',
      totalNetUsd: 0,
      totalAssetUsd: 0,
      totalDebtUsd: 0,
      positions: [],
    });
    server.replay!.resetCounts();
    for (const bad of ['0x123', 'vitalik.eth', `0x${'g'.repeat(40)}`]) {
      await expectEnvelope(await server.get(`/api/defi/positions/${bad}`), 400, 'INVALID_PARAMETER');
    }
    expect(server.replay!.requestCount('debank')).toBe(0);
  });

  it('GET /api/active-users gives daily and 7-day active addresses of each chain growthepie measures, at $0.01', async () => {
    const res = await server.get('/api/active-users');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      source: 'growthepie',
      chains: [
        { chain: 'ethereum', chainId: 1, activeUsers24h: 458000, activeUsers7d: 2180000, date: '2026-11-20' },
        { chain: 'base', chainId: 8453, activeUsers24h: 1237000, activeUsers7d: 6450000, date: '2026-11-20' },
        { chain: 'arbitrum', chainId: 42161, activeUsers24h: 307500, activeUsers7d: 1510000, date: '2026-11-20' },
        { chain: 'optimism', chainId: 10, activeUsers24h: 104500, activeUsers7d: 542000, date: '2026-11-20' },
      ],
    });
    const openapi = await (await server.get('/api/openapi.yaml')).text();
    expect(openapi).toMatch(/operationId: getActiveUsers[\s\S]*?x-price-usd: "?0\.01"?/);
  });

  it('GET /api/events lists hacks and raises newest first with a total; type, chain, limit and offset filter it', async () => {
    const all = await (await server.get('/api/events')).json();
    expect(all.total).toBe(14);
    expect(all.results).toHaveLength(14);
    const dates = all.results.map((e: { date: string }) => e.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(all.results[0]).toMatchObject({
      type: 'raise',
      name: 'Morpho',
      amountUsd: 22500000,
      round: 'Strategic',
      leadInvestors: ['Paradigm'],
    });
    expect(all.results.find((e: { name: string }) => e.name === 'Bybit')).toMatchObject({
      type: 'hack',
      date: '2025-02-21T00:00:00.000Z',
      amountUsd: 1460000000,
      technique: 'Compromised Multisig UI',
      round: null,
    });

    const hacks = await (await server.get('/api/events?type=hack&limit=3&offset=1')).json();
    expect(hacks.total).toBe(8);
    expect(hacks.results.map((e: { name: string }) => e.name)).toEqual([
      'Shibarium Bridge',
      'CoinDCX',
      'Cork Protocol',
    ]);
    const onBase = await (await server.get('/api/events?chain=base')).json();
    expect(onBase.results.every((e: { chains: string[] }) => e.chains.includes('Base'))).toBe(true);
    expect(onBase.total).toBe(4);
    await expectEnvelope(await server.get('/api/events?type=exploit'), 400, 'INVALID_PARAMETER');
    await expectEnvelope(await server.get('/api/events?limit=101'), 400, 'INVALID_PARAMETER');
    // Hacks and raises are two lists of DefiLlama's pro API (pro-only), each asked once per 5 minutes.
    expect(upstreamCalls(server)).toMatchObject({ 'defillama-pro': 2 });
  });

  it('GET /api/events/upcoming answers {success, data} with the next token unlocks after now, soonest first', async () => {
    const res = await server.get('/api/events/upcoming');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.success).toBe(true);
    expect(body.data.to).toBeNull();
    expect(Date.parse(body.data.from)).toBeLessThanOrEqual(Date.now());
    const names = body.data.unlocks.map((u: { name: string }) => u.name);
    // Sui's unlock is past, Uniswap's unlocks nothing and Lido DAO has none scheduled.
    expect(names).toEqual(['Ethena', 'Arbitrum', 'Pendle', 'Optimism', 'EigenLayer']);
    expect(body.data.count).toBe(5);
    expect(body.data.unlocks[1]).toEqual({
      type: 'unlock',
      date: '2029-03-16T00:00:00.000Z',
      name: 'Arbitrum',
      geckoId: 'arbitrum',
      tokens: 92650000,
      percentOfCirculating: 1.6938,
      estimatedValueUsd: 29184750,
    });
    // Pendle's market cap is unknown: no value estimate rather than a guess.
    expect(body.data.unlocks[2]).toMatchObject({ name: 'Pendle', estimatedValueUsd: null });

    const soon = await (await server.get('/api/events/upcoming?days=30&limit=2')).json();
    expect(soon.data.count).toBe(0);
    expect(Date.parse(soon.data.to) - Date.parse(soon.data.from)).toBe(30 * 86_400_000);
    const two = await (await server.get('/api/events/upcoming?limit=2')).json();
    expect(two.data).toMatchObject({ count: 5 });
    expect(two.data.unlocks).toHaveLength(2);
    await expectEnvelope(await server.get('/api/events/upcoming?days=0'), 400, 'INVALID_PARAMETER');
    await expectEnvelope(await server.get('/api/events/upcoming?days=3651'), 400, 'INVALID_PARAMETER');
    expect(upstreamCalls(server)).toMatchObject({ 'defillama-pro': 1 });
  });

  it('GraphQL answers the same fields as REST (defiProtocols, defiProtocol)', async () => {
    const res = await server.post('/graphql', {
      query:
        '{ defiProtocols(limit: 3, offset: 1) { data { slug } pagination { limit offset total hasMore } } defiProtocol(name: "lido") { slug chains } }',
    });
    const { data } = await res.json();
    const rest = (await (await server.get('/api/defi/protocols?limit=3&offset=1')).json()) as Page<Protocol>;
    expect(data.defiProtocols).toEqual({ data: rest.data.map((p) => ({ slug: p.slug })), pagination: rest.pagination });
    expect(data.defiProtocol).toEqual({ slug: 'lido', chains: ['Ethereum', 'Solana', 'Polygon'] });
  });
});

describe('DeFi upstream failures: 503 in the envelope, never a guess', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      ANONYMOUS_DAILY_LIMIT: '1000000',
      ANONYMOUS_PER_MINUTE_LIMIT: '1000000',
      // Room for the good replies on a busy machine, well short of the slow scenario's 6 s.
      UPSTREAM_TIMEOUT_MS: '1000',
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('within the 5-minute freshness a repeat is served from cache even while DefiLlama is down; /api/sources/health lists every DeFi source as local', async () => {
    const fresh = await (await server.get('/api/defi/protocols?limit=2')).json();
    server.replay!.setScenario('defillama', 'down');
    expect(await (await server.get('/api/defi/protocols?limit=2&offset=0')).json()).toEqual(fresh);
    const health = await (await server.get('/api/sources/health')).json();
    const names = health.sources.map((s: { name: string }) => s.name);
    expect(names).toEqual(expect.arrayContaining([...DEFI_SOURCES]));
    for (const s of health.sources.filter((x: { name: string }) =>
      (DEFI_SOURCES as readonly string[]).includes(x.name),
    )) {
      expect(s.mode).toBe('local');
    }
    server.replay!.setScenario('defillama', null);
  });

  it('DefiLlama down: protocol stats and events are 503 SERVICE_UNAVAILABLE; once the breaker opens, calls fail fast without asking', async () => {
    server.replay!.setScenario('defillama', 'down');
    server.replay!.setScenario('defillama-pro', 'down');
    await expectEnvelope(await server.get('/api/defi/protocol/lido'), 503, 'SERVICE_UNAVAILABLE');
    await expectEnvelope(await server.get('/api/events?type=hack'), 503, 'SERVICE_UNAVAILABLE');
    await expectEnvelope(await server.get('/api/events?type=raise'), 503, 'SERVICE_UNAVAILABLE');
    const asked = server.replay!.requestCount('defillama-pro');
    await expectEnvelope(await server.get('/api/events?type=hack&limit=5'), 503, 'SERVICE_UNAVAILABLE');
    expect(server.replay!.requestCount('defillama-pro')).toBe(asked);
    server.replay!.setScenario('defillama', null);
    server.replay!.setScenario('defillama-pro', null);
  });

  it('a truncated yields reply is 503 and is not cached: the next good reply is served', async () => {
    server.replay!.setScenario('defillama-yields', 'malformed');
    await expectEnvelope(await server.get('/api/yields'), 503, 'SERVICE_UNAVAILABLE');
    server.replay!.setScenario('defillama-yields', null);
    const page = await (await server.get('/api/yields?limit=1')).json();
    expect(page.pagination.total).toBe(130);
  });

  it('a slow positions upstream fails fast (503), a rate-limited growthepie is 503, a malformed unlock list is 503', async () => {
    server.replay!.setScenario('debank', 'slow');
    // The slow reply comes after 6 s: a 503 the upstream deadline caused did not wait for it.
    await expectEnvelope(await server.get(`/api/defi/positions/${VITALIK}`), 503, 'SERVICE_UNAVAILABLE');
    const { sources } = await (await server.get('/api/sources/health')).json();
    expect(sources.find((s: { name: string }) => s.name === 'debank').lastError).toMatch(/^timed out after \d+ms$/);
    server.replay!.setScenario('growthepie', 'rate-limited');
    await expectEnvelope(await server.get('/api/active-users'), 503, 'SERVICE_UNAVAILABLE');
    server.replay!.setScenario('defillama-pro', 'malformed');
    await expectEnvelope(await server.get('/api/events/upcoming'), 503, 'SERVICE_UNAVAILABLE');
  });
});

describe('DefiLlama live without a pro key: its pro-only lists answer 503, never recorded data', () => {
  let server: TestServer;
  beforeAll(async () => {
    // A live free API (never reached here); hacks, raises and unlocks exist only on the pro host.
    server = await startTestServer({ DEFILLAMA_API_URL: 'http://127.0.0.1:9', UPSTREAM_TIMEOUT_MS: '300' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('GET /api/events and /api/events/upcoming are 503 SERVICE_UNAVAILABLE naming DEFILLAMA_PRO_API_KEY', async () => {
    for (const path of ['/api/events', '/api/events/upcoming']) {
      const { message } = await expectEnvelope(await server.get(path), 503, 'SERVICE_UNAVAILABLE');
      expect(message).toMatch(/DEFILLAMA_PRO_API_KEY/);
    }
    expect(server.replay!.requestCount('defillama-pro')).toBe(0);
    const health = await (await server.get('/api/sources/health')).json();
    expect(JSON.stringify(health)).not.toContain('defillama-pro');
  });
});
