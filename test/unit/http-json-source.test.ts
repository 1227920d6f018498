import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultRecordingsDir, type ReplayServer, startReplayServer } from '../../src/embedded/replay/replay-server.js';
import { ApiError } from '../../src/errors/api-error.js';
import { HttpJsonSource, parseRetryAfter, type UpstreamRequestInfo } from '../../src/sources/http-json-source.js';
import { SourceClient, type SourcePolicy } from '../../src/sources/source-client.js';
import { SourceHealthRegistry } from '../../src/sources/source-health.js';
import { manualTiming } from '../helpers/manual-timing.js';

const PRICE_PATH = '/api/v3/simple/price';
const PRICE_QUERY = {
  ids: 'ethereum,bitcoin',
  vs_currencies: 'usd',
  include_24hr_change: true,
  include_24hr_vol: true,
  include_market_cap: true,
};

type SimplePrice = Record<
  string,
  { usd: number; usd_market_cap?: number; usd_24h_vol?: number; usd_24h_change?: number }
>;

describe('HttpJsonSource against the replay server', () => {
  let replay: ReplayServer;

  beforeAll(async () => {
    replay = await startReplayServer({ recordingsDir: defaultRecordingsDir() });
  });
  afterAll(() => replay.close());
  beforeEach(() => {
    replay.setScenario('coingecko', null);
    replay.resetCounts();
  });

  function coingecko(policy: Partial<SourcePolicy> = {}, baseUrl = replay.baseUrlFor('coingecko')) {
    let now = Date.parse('2025-01-01T00:00:00Z');
    const timing = manualTiming();
    const registry = new SourceHealthRegistry({ now: () => now });
    const client = new SourceClient({
      policy: {
        name: 'coingecko',
        kind: 'prices',
        mode: 'local',
        freshnessMs: 30_000,
        // Roomy for a loaded CI machine; the deadline test sets its own.
        timeoutMs: 2000,
        retries: 2,
        backoff: { initialDelayMs: 1, maxDelayMs: 2 },
        retryAfterCapMs: 10,
        ...policy,
      },
      registry,
      now: () => now,
      ...timing.params,
    });
    const requests: UpstreamRequestInfo[] = [];
    const source = new HttpJsonSource({
      baseUrl,
      headers: { 'x-cg-demo-api-key': 'demo-key' },
      client,
      onRequest: (r) => requests.push(r),
    });
    return { source, registry, requests, timing, advance: (ms: number) => void (now += ms) };
  }

  it('returns the parsed JSON of a 2xx and serves repeats from cache', async () => {
    const { source, requests } = coingecko();
    const prices = await source.getJson<SimplePrice>(PRICE_PATH, { query: PRICE_QUERY });
    expect(prices?.ethereum).toEqual({
      usd: 3012.45,
      usd_market_cap: expect.any(Number),
      usd_24h_vol: expect.any(Number),
      usd_24h_change: expect.any(Number),
    });
    await source.getJson<SimplePrice>(PRICE_PATH, { query: { ...PRICE_QUERY } });
    expect(source.requestCount).toBe(1);
    expect(replay.requestCount('coingecko')).toBe(1);
    expect(requests).toEqual([{ method: 'GET', path: PRICE_PATH }]);
  });

  it('maps an upstream 404 to null (cached), or to a 404 ApiError when asked', async () => {
    const { source, registry } = coingecko();
    expect(await source.getJson('/api/v3/coins/unknown-coin')).toBeNull();
    expect(await source.getJson('/api/v3/coins/unknown-coin')).toBeNull();
    expect(source.requestCount).toBe(1);

    await expect(source.getJson('/api/v3/coins/other', { notFound: 'error' })).rejects.toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
    expect(registry.list()[0]!.state).toBe('up');
  });

  it('turns a 503 into SERVICE_UNAVAILABLE after retrying', async () => {
    const { source, registry, timing } = coingecko();
    replay.setScenario('coingecko', 'down');
    const error = await source.getJson(PRICE_PATH, { query: PRICE_QUERY }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', message: 'coingecko is unavailable' });
    expect(replay.requestCount('coingecko')).toBe(3);
    expect(timing.waits).toEqual([1, 1]);
    expect(registry.list()[0]).toMatchObject({ state: 'degraded', lastError: `HTTP 503 on GET ${PRICE_PATH}` });
  });

  it('turns a malformed reply into SERVICE_UNAVAILABLE without retrying', async () => {
    const { source } = coingecko();
    replay.setScenario('coingecko', 'malformed');
    await expect(source.getJson(PRICE_PATH, { query: PRICE_QUERY })).rejects.toMatchObject({ status: 503 });
    expect(replay.requestCount('coingecko')).toBe(1);
  });

  it('turns a slow upstream into SERVICE_UNAVAILABLE at the deadline of the call, after one attempt', async () => {
    // Long enough for the request to reach the replay on a busy machine: one cut off on its way is counted late.
    const { source, registry } = coingecko({ timeoutMs: 1000 });
    replay.setScenario('coingecko', 'slow');
    // The replay's 'slow' reply comes after 6 s: a 503 the deadline caused, after one request, did not wait for it.
    await expect(source.getJson(PRICE_PATH, { query: PRICE_QUERY })).rejects.toMatchObject({ status: 503 });
    expect(replay.requestCount('coingecko')).toBe(1);
    expect(registry.list()[0]!.lastError).toBe('timed out after 1000ms');
  });

  it('retries a 429, waiting out Retry-After only up to the cap', async () => {
    const { source, timing } = coingecko({ retryAfterCapMs: 100, timeoutMs: 2000 });
    replay.setScenario('coingecko', 'rate-limited');
    await expect(source.getJson(PRICE_PATH, { query: PRICE_QUERY })).rejects.toMatchObject({ status: 503 });
    expect(replay.requestCount('coingecko')).toBe(3);
    // The replay asks for 1 s (Retry-After: 1); each wait is cut to the cap.
    expect(timing.waits).toEqual([100, 100]);
  });

  it('serves the last good reply when the upstream goes down, and says degraded', async () => {
    const { source, registry, advance } = coingecko({ freshnessMs: 30_000 });
    const before = await source.getJson<SimplePrice>(PRICE_PATH, { query: PRICE_QUERY });
    replay.setScenario('coingecko', 'down');
    advance(31_000);
    expect(await source.getJson<SimplePrice>(PRICE_PATH, { query: PRICE_QUERY })).toEqual(before);
    expect(registry.list()[0]!.state).toBe('degraded');
  });

  it('reports a refused connection as a network error without the URL', async () => {
    const closed = await startReplayServer({ recordingsDir: defaultRecordingsDir() });
    const deadUrl = closed.baseUrlFor('coingecko');
    await closed.close();
    const { source, registry } = coingecko({ retries: 1 }, deadUrl);
    await expect(source.getJson(PRICE_PATH, { query: { ids: 'secret-ish' } })).rejects.toMatchObject({ status: 503 });
    expect(source.requestCount).toBe(2);
    expect(registry.list()[0]!.lastError).toBe(`network error on GET ${PRICE_PATH}`);
  });
});

describe('HttpJsonSource requests', () => {
  function withStubFetch(reply: (url: string, init: RequestInit) => Response) {
    const registry = new SourceHealthRegistry();
    const client = new SourceClient({
      policy: {
        name: 'stub',
        kind: 'test',
        mode: 'local',
        freshnessMs: 60_000,
        backoff: { initialDelayMs: 1, maxDelayMs: 2 },
      },
      registry,
    });
    const calls: { url: string; init: RequestInit }[] = [];
    const source = new HttpJsonSource({
      baseUrl: 'https://api.example.com/base/',
      headers: { 'x-api-key': 'k-123' },
      client,
      fetch: async (input, init) => {
        calls.push({ url: String(input), init: init ?? {} });
        return reply(String(input), init ?? {});
      },
    });
    return { source, calls, registry };
  }

  it('sends the headers, a sorted query, and keeps the query out of the health page', async () => {
    const { source, calls, registry } = withStubFetch(() => new Response('oops', { status: 500 }));
    await expect(
      source.getJson('/v1/price', { query: { b: 2, a: 'x', skip: undefined, apikey: 'k-123' } }),
    ).rejects.toMatchObject({
      status: 503,
    });
    expect(calls[0]!.url).toBe('https://api.example.com/base/v1/price?a=x&apikey=k-123&b=2');
    expect(calls[0]!.init.headers).toMatchObject({ 'x-api-key': 'k-123', accept: 'application/json' });
    expect(JSON.stringify(registry.list())).not.toContain('k-123');
  });

  it('does not retry a refused request (4xx other than 404 and 429)', async () => {
    const { source, calls } = withStubFetch(() => new Response('{}', { status: 401 }));
    await expect(source.getJson('/v1/price')).rejects.toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(calls).toHaveLength(1);
  });

  it('posts JSON without retrying or caching by default', async () => {
    const { source, calls } = withStubFetch((_url, init) =>
      init.method === 'POST' && String(init.body) === '{"q":1}'
        ? Response.json({ ok: true })
        : new Response(null, { status: 500 }),
    );
    expect(await source.postJson('/rpc', { q: 1 })).toEqual({ ok: true });
    expect(await source.postJson('/rpc', { q: 1 })).toEqual({ ok: true });
    expect(calls).toHaveLength(2);
    expect(calls[0]!.init.headers).toMatchObject({ 'content-type': 'application/json' });

    await expect(source.postJson('/rpc', { q: 2 })).rejects.toMatchObject({ status: 503 });
    expect(calls).toHaveLength(3);
  });

  it('retries an idempotent post and caches it under a cache key', async () => {
    let attempt = 0;
    const { source, calls } = withStubFetch(() =>
      ++attempt === 1 ? new Response(null, { status: 502 }) : Response.json({ n: attempt }),
    );
    expect(await source.postJson('/graphql', { query: '{a}' }, { idempotent: true, cacheKey: 'a' })).toEqual({ n: 2 });
    expect(await source.postJson('/graphql', { query: '{a}' }, { idempotent: true, cacheKey: 'a' })).toEqual({ n: 2 });
    expect(calls).toHaveLength(2);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
