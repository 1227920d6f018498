import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TOKEN_LISTINGS } from '../../src/arguments/token-symbol.js';
import { loadConfig } from '../../src/config/config.js';
import { defaultRecordingsDir, type ReplayServer, startReplayServer } from '../../src/embedded/replay/replay-server.js';
import { createSources } from '../../src/server/create-sources.js';
import type { UpstreamClientParams } from '../../src/sources/http-upstream.js';
import { CoinbaseSpotClient } from '../../src/sources/prices/coinbase-spot-client.js';
import { CoinGeckoClient } from '../../src/sources/prices/coingecko-client.js';
import { DefiLlamaCoinsClient } from '../../src/sources/prices/defillama-coins-client.js';
import { SourceHealthRegistry } from '../../src/sources/source-health.js';
import { manualTiming } from '../helpers/manual-timing.js';

const SOURCES = ['coingecko', 'defillama-coins', 'coinbase'] as const;

describe('price clients against the recorded replies', () => {
  let replay: ReplayServer;

  beforeAll(async () => {
    replay = await startReplayServer({ recordingsDir: defaultRecordingsDir() });
  });
  afterAll(() => replay.close());
  beforeEach(() => {
    for (const source of SOURCES) replay.setScenario(source, null);
    replay.resetCounts();
  });

  /** Fresh clients (empty caches, closed breakers) whose retry waits are recorded and take no time. */
  function clients(overrides: Partial<UpstreamClientParams> = {}) {
    const registry = new SourceHealthRegistry();
    const timing = manualTiming();
    const common = {
      mode: 'local' as const,
      registry,
      // Roomy for a loaded machine; the slow-upstream test sets its own.
      timeoutMs: 2000,
      policy: { backoff: { initialDelayMs: 1, maxDelayMs: 2 }, retryAfterCapMs: 10 },
      ...timing.params,
      ...overrides,
    };
    return {
      registry,
      timing,
      coingecko: new CoinGeckoClient({ ...common, baseUrl: replay.baseUrlFor('coingecko') }),
      defillama: new DefiLlamaCoinsClient({ ...common, baseUrl: replay.baseUrlFor('defillama-coins') }),
      coinbase: new CoinbaseSpotClient({ ...common, baseUrl: replay.baseUrlFor('coinbase') }),
    };
  }

  const ids = TOKEN_LISTINGS.slice(0, 50).map((t) => t.coingeckoId);

  it('CoinGecko prices 50 coins in one request, and the same set again from cache in any order', async () => {
    const { coingecko } = clients();
    const quotes = await coingecko.marketQuotes(ids);
    expect(quotes.size).toBe(50);
    expect(quotes.get('ethereum')).toEqual({
      coingeckoId: 'ethereum',
      priceUsd: 3012.45,
      change24hPercent: -1.2304518825,
      volume24hUsd: 14873920155.20871,
      marketCapUsd: 362518734102.4471,
      quotedAt: 1748865587,
    });
    await coingecko.marketQuotes([...ids].reverse());
    expect(replay.requestCount('coingecko')).toBe(1);
  });

  it('DefiLlama prices 50 coins in one request', async () => {
    const { defillama } = clients();
    const quotes = await defillama.currentPrices(ids);
    expect(quotes.size).toBe(50);
    expect(quotes.get('ethereum')).toEqual({ source: 'defillama-coins', priceUsd: 3010.12, quotedAt: 1748865561 });
    expect(replay.requestCount('defillama-coins')).toBe(1);
  });

  it('Coinbase prices one pair per request (the real API has no multi-pair spot route), null for a pair it does not list', async () => {
    const { coinbase } = clients();
    expect(await coinbase.spotPrice('ETH-USD')).toEqual({ source: 'coinbase', priceUsd: 3013.9, quotedAt: null });
    expect(await coinbase.spotPrice('BTC-USD')).toMatchObject({ priceUsd: expect.closeTo(67234, -3) });
    expect(await coinbase.spotPrice('NOTACOIN-USD')).toBeNull();
    expect(replay.requestCount('coinbase')).toBe(3);
    await expect(coinbase.spotPrice('ETH/USD')).rejects.toThrow(TypeError);
  });

  it('CoinGecko answers history as [ms, price] pairs and null for a coin it does not know', async () => {
    const { coingecko } = clients();
    const day = await coingecko.priceSeries('ethereum', 1);
    expect(day?.prices.length).toBeGreaterThan(280);
    expect(day?.prices.at(-1)?.[1]).toBe(3012.45);
    const times = day!.prices.map(([ms]) => ms);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(await coingecko.priceSeries('not-a-coin', 7)).toBeNull();
  });

  it('CoinGecko answers the trending list in its order', async () => {
    const { coingecko } = clients();
    const coins = await coingecko.trending();
    expect(coins).toHaveLength(15);
    expect(coins[0]).toMatchObject({
      rank: 1,
      coingeckoId: 'hyperliquid',
      symbol: 'HYPE',
      priceUsd: 33.82,
      marketCapUsd: 3382000000,
    });
  });

  it.each(SOURCES)('%s down: 503 SERVICE_UNAVAILABLE after the retries, and health says so', async (source) => {
    const c = clients();
    replay.setScenario(source, 'down');
    const call =
      source === 'coingecko'
        ? c.coingecko.marketQuotes(['ethereum'])
        : source === 'coinbase'
          ? c.coinbase.spotPrice('ETH-USD')
          : c.defillama.currentPrices(['ethereum']);
    await expect(call).rejects.toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: `${source} is unavailable`,
    });
    expect(replay.requestCount(source)).toBe(3);
    expect(c.registry.list().find((s) => s.name === source)).toMatchObject({ state: 'degraded', mode: 'local' });
  });

  it.each(['defillama-coins', 'coinbase'] as const)(
    '%s malformed or of another shape: 503 at once, not retried, not cached',
    async (source) => {
      const c = clients();
      const call = () =>
        source === 'coinbase' ? c.coinbase.spotPrice('ETH-USD') : c.defillama.currentPrices(['ethereum']);
      for (const scenario of ['malformed', 'unexpected-shape']) {
        replay.setScenario(source, scenario);
        replay.resetCounts();
        await expect(call()).rejects.toMatchObject({ status: 503 });
        expect(replay.requestCount(source)).toBe(1);
      }
      expect(c.registry.list().find((s) => s.name === source)?.lastError).toMatch(/unexpected reply shape/);
      replay.setScenario(source, null);
      await expect(call()).resolves.toBeTruthy();
    },
  );

  it('slow upstream: each attempt times out, then 503', async () => {
    const c = clients({ timeoutMs: 100 });
    replay.setScenario('coinbase', 'slow');
    // The slow reply comes after 6 s: a 503 whose cause is the 100 ms deadline did not wait for it.
    await expect(c.coinbase.spotPrice('ETH-USD')).rejects.toMatchObject({ status: 503 });
    expect(c.registry.list().find((s) => s.name === 'coinbase')?.lastError).toBe('timed out after 100ms');
  });

  it('rate limited: retried after the (capped) Retry-After, then 503', async () => {
    const c = clients();
    replay.setScenario('defillama-coins', 'rate-limited');
    await expect(c.defillama.currentPrices(['ethereum'])).rejects.toMatchObject({ status: 503 });
    expect(replay.requestCount('defillama-coins')).toBe(3);
    expect(c.timing.waits).toEqual([10, 10]);
    expect(c.registry.list().find((s) => s.name === 'defillama-coins')?.lastError).toMatch(/rate limited/);
  });

  it('sends the CoinGecko key in the demo header, never in the URL', async () => {
    const seen: { url: string; key: string | null }[] = [];
    const spy: typeof fetch = async (input, init) => {
      seen.push({ url: String(input), key: new Headers(init?.headers).get('x-cg-demo-api-key') });
      return fetch(input, init);
    };
    const registry = new SourceHealthRegistry();
    const coingecko = new CoinGeckoClient({
      baseUrl: `${replay.baseUrlFor('coingecko')}/api/v3`,
      apiKey: 'demo-secret',
      mode: 'live',
      registry,
      timeoutMs: 2000,
      fetch: spy,
    });
    expect((await coingecko.marketQuotes(['ethereum'])).get('ethereum')?.priceUsd).toBe(3012.45);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.key).toBe('demo-secret');
    expect(seen[0]?.url).not.toContain('demo-secret');
    expect(seen[0]?.url).toContain('/coingecko/api/v3/simple/price?');
    expect(registry.list()[0]).toMatchObject({ name: 'coingecko', mode: 'live', kind: 'prices' });
  });
});

describe('each price source is live when its env var is set, else the local replay', () => {
  const modes = async (env: Record<string, string>) => {
    const created = await createSources({ config: loadConfig(env), localRpcUrl: undefined });
    try {
      const health = created.sources.health.list();
      return {
        replay: created.replay !== undefined,
        modes: Object.fromEntries(SOURCES.map((name) => [name, health.find((s) => s.name === name)?.mode])),
      };
    } finally {
      await created.close();
    }
  };

  it('all three set: all three live (the replay still serves the other domains left unset)', async () => {
    const found = await modes({
      COINGECKO_API_URL: 'https://api.coingecko.com',
      DEFILLAMA_COINS_URL: 'https://coins.llama.fi',
      COINBASE_API_URL: 'https://api.coinbase.com',
    });
    expect(found.modes).toEqual({ coingecko: 'live', 'defillama-coins': 'live', coinbase: 'live' });
  });

  it('one set: that one live, the others local through the replay', async () => {
    expect(await modes({ COINBASE_API_URL: 'https://api.coinbase.com' })).toEqual({
      replay: true,
      modes: { coingecko: 'local', 'defillama-coins': 'local', coinbase: 'live' },
    });
  });
});
