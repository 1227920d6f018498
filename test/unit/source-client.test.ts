import { describe, expect, it } from 'vitest';
import { ApiError, notFound } from '../../src/errors/api-error.js';
import { SourceClient, type SourcePolicy, UpstreamError } from '../../src/sources/source-client.js';
import { SourceHealthRegistry } from '../../src/sources/source-health.js';
import { manualTiming } from '../helpers/manual-timing.js';

/** A clock the test moves by hand. */
function manualClock(start = Date.parse('2025-01-01T00:00:00Z')) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

function makeClient(policy: Partial<SourcePolicy> = {}) {
  const clock = manualClock();
  const timing = manualTiming();
  const registry = new SourceHealthRegistry({ now: clock.now });
  const client = new SourceClient({
    policy: {
      name: 'test-source',
      kind: 'prices',
      mode: 'local',
      freshnessMs: 30_000,
      timeoutMs: 50,
      retries: 2,
      backoff: { initialDelayMs: 1, maxDelayMs: 2 },
      breaker: { consecutiveFailures: 100, halfOpenAfterMs: 10_000 },
      ...policy,
    },
    registry,
    now: clock.now,
    ...timing.params,
  });
  const health = () => registry.list().find((s) => s.name === 'test-source')!;
  return { client, registry, clock, timing, health };
}

/** A fetcher that counts its calls and answers from a script. */
function scriptedFetcher<T>(answer: (call: number, signal: AbortSignal) => Promise<T>) {
  const fetcher = Object.assign(
    (signal: AbortSignal) => {
      fetcher.calls += 1;
      return answer(fetcher.calls, signal);
    },
    { calls: 0 },
  );
  return fetcher;
}

/** How long a hung upstream takes to answer: far past every deadline here, so an earlier answer is the deadline's. */
const HANG_MS = 10_000;

/** An upstream that answers only after HANG_MS, and lets go as soon as its request is aborted. */
const hangs = (_call: number, signal: AbortSignal) =>
  new Promise<string>((resolve, reject) => {
    const late = setTimeout(resolve, HANG_MS, 'the upstream, too late');
    signal.addEventListener('abort', () => {
      clearTimeout(late);
      reject(signal.reason);
    });
  });

const serverError = () => Promise.reject(new UpstreamError('HTTP 502 on GET /x', { status: 502, retryable: true }));

describe('SourceClient', () => {
  it('serves a fresh cached value without calling upstream, and refetches once it is stale', async () => {
    const { client, clock } = makeClient();
    const fetcher = scriptedFetcher(async (call) => ({ usd: 3000 + call }));

    expect(await client.load('eth', fetcher)).toEqual({ usd: 3001 });
    clock.advance(29_999);
    expect(await client.load('eth', fetcher)).toEqual({ usd: 3001 });
    expect(fetcher.calls).toBe(1);
    expect(client.upstreamCalls).toBe(1);

    clock.advance(1);
    expect(await client.load('eth', fetcher)).toEqual({ usd: 3002 });
    expect(fetcher.calls).toBe(2);
  });

  it('honours a per-call freshness', async () => {
    const { client, clock } = makeClient();
    const fetcher = scriptedFetcher(async (call) => call);
    await client.load('k', fetcher, { freshnessMs: 1000 });
    clock.advance(1000);
    expect(await client.load('k', fetcher, { freshnessMs: 1000 })).toBe(2);
  });

  it('caches null as a negative answer', async () => {
    const { client } = makeClient();
    const fetcher = scriptedFetcher(async () => null);
    expect(await client.load('missing', fetcher)).toBeNull();
    expect(await client.load('missing', fetcher)).toBeNull();
    expect(fetcher.calls).toBe(1);
  });

  it('shares one in-flight fetch between concurrent loads of the same key', async () => {
    const { client } = makeClient();
    let release!: (value: string) => void;
    const fetcher = scriptedFetcher(() => new Promise<string>((resolve) => (release = resolve)));

    const loads = Array.from({ length: 10 }, () => client.load('same', fetcher));
    await Promise.resolve();
    release('shared');

    expect(await Promise.all(loads)).toEqual(Array(10).fill('shared'));
    expect(fetcher.calls).toBe(1);
  });

  it('does not share or keep anything when cache is false', async () => {
    const { client } = makeClient();
    const fetcher = scriptedFetcher(async (call) => call);
    const results = await Promise.all([
      client.load('k', fetcher, { cache: false }),
      client.load('k', fetcher, { cache: false }),
    ]);
    expect(results.sort()).toEqual([1, 2]);
    expect(await client.load('k', fetcher)).toBe(3);
  });

  it('a hung upstream gets one deadline for the whole call: 503 SERVICE_UNAVAILABLE at the deadline, degraded', async () => {
    const { client, health } = makeClient({ timeoutMs: 60, retries: 2 });
    const aborted: unknown[] = [];
    const fetcher = scriptedFetcher((call, signal) => {
      signal.addEventListener('abort', () => aborted.push(signal.reason));
      return hangs(call, signal);
    });

    const started = performance.now();
    const error = await client.load('eth', fetcher).catch((e: unknown) => e);
    const elapsed = performance.now() - started;

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', message: 'test-source is unavailable' });
    // The upstream saw its request aborted by the deadline, which came no earlier than 60 ms (a timer may fire 1 ms early).
    expect(aborted).toEqual([expect.objectContaining({ message: 'timed out after 60ms' })]);
    expect(elapsed).toBeGreaterThanOrEqual(55);
    // The first attempt used the whole deadline: no time was left for a retry.
    expect(fetcher.calls).toBe(1);
    expect(health()).toMatchObject({ state: 'degraded', lastError: 'timed out after 60ms' });
    expect(health().lastLatencyMs).toBeGreaterThanOrEqual(55);
  });

  it('a fetcher that ignores its abort signal still cannot hold the caller past the deadline', async () => {
    const { client, health } = makeClient({ timeoutMs: 20, retries: 1 });
    const fetcher = scriptedFetcher(
      () => new Promise<string>((resolve) => setTimeout(resolve, HANG_MS, 'the upstream, too late').unref()),
    );
    await expect(client.load('eth', fetcher)).rejects.toMatchObject({ status: 503 });
    expect(fetcher.calls).toBe(1);
    expect(health().lastError).toBe('timed out after 20ms');
  });

  it('the deadline covers every attempt: after fast failures, the last attempt gets only what is left of it', async () => {
    const { client, health, timing } = makeClient({
      timeoutMs: 300,
      retries: 2,
      backoff: { initialDelayMs: 100, maxDelayMs: 100 },
    });
    // A 502 after 50 ms, a wait of 50–100 ms (the jitter picks 50), then an upstream that hangs.
    const sent: string[] = [];
    const fetcher = scriptedFetcher((call, signal) => {
      sent.push(`attempt ${call} at ${timing.now()} ms`);
      if (call > 1) return hangs(call, signal);
      timing.pass(50);
      return serverError();
    });
    await expect(client.load('eth', fetcher)).rejects.toMatchObject({ status: 503 });
    expect(timing.waits).toEqual([50]);
    expect(sent).toEqual(['attempt 1 at 0 ms', 'attempt 2 at 100 ms']);
    // The last attempt was given what was left of the 300 ms, and no third one came after it.
    expect(health().lastError).toBe('timed out after 200ms');
  });

  it('makes no retry whose wait (an upstream Retry-After) would outlast the deadline', async () => {
    const { client, timing } = makeClient({ timeoutMs: 200, retries: 2, retryAfterCapMs: 10_000 });
    const fetcher = scriptedFetcher(() =>
      Promise.reject(
        new UpstreamError('rate limited (HTTP 429)', { status: 429, retryable: true, retryAfterMs: 5000 }),
      ),
    );
    await expect(client.load('eth', fetcher)).rejects.toMatchObject({ status: 503 });
    expect(timing.waits).toEqual([]);
    expect(fetcher.calls).toBe(1);
  });

  it('serves the cached value at the deadline when the upstream hangs after its freshness ran out', async () => {
    const { client, clock, health } = makeClient({ timeoutMs: 50, freshnessMs: 1000, staleIfErrorMs: 60_000 });
    await client.load('eth', async () => ({ usd: 3012.45 }));
    clock.advance(1001);
    expect(await client.load('eth', scriptedFetcher(hangs))).toEqual({ usd: 3012.45 });
    expect(health()).toMatchObject({ state: 'degraded', lastError: 'timed out after 50ms' });
  });

  it('recovers on retry and reports up', async () => {
    const { client, health, timing } = makeClient();
    const fetcher = scriptedFetcher((call) => (call === 1 ? serverError() : Promise.resolve('ok')));
    expect(await client.load('k', fetcher)).toBe('ok');
    expect(fetcher.calls).toBe(2);
    expect(timing.waits).toEqual([1]);
    expect(health()).toMatchObject({ state: 'up', lastError: null });
  });

  it('retries only idempotent calls and only retryable failures', async () => {
    const { client } = makeClient();
    const notIdempotent = scriptedFetcher(serverError);
    await expect(client.load('post', notIdempotent, { idempotent: false })).rejects.toMatchObject({ status: 503 });
    expect(notIdempotent.calls).toBe(1);

    const refused = scriptedFetcher(() =>
      Promise.reject(new UpstreamError('HTTP 401 on GET /x', { status: 401, retryable: false })),
    );
    await expect(client.load('refused', refused)).rejects.toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(refused.calls).toBe(1);
  });

  it('serves a stale value when upstream fails within staleIfErrorMs, and marks the source degraded', async () => {
    const { client, clock, health } = makeClient({ freshnessMs: 1000, staleIfErrorMs: 10_000 });
    let upstreamDown = false;
    const fetcher = scriptedFetcher(async () => {
      if (upstreamDown) throw new UpstreamError('HTTP 503 on GET /price', { status: 503, retryable: true });
      return { usd: 3012.45 };
    });
    await client.load('eth', fetcher);

    upstreamDown = true;
    clock.advance(5000);
    expect(await client.load('eth', fetcher)).toEqual({ usd: 3012.45 });
    expect(health()).toMatchObject({ state: 'degraded', lastError: 'HTTP 503 on GET /price' });

    clock.advance(5001);
    await expect(client.load('eth', fetcher)).rejects.toMatchObject({ status: 503 });

    upstreamDown = false;
    await client.load('eth', fetcher);
    expect(health().state).toBe('up');
  });

  // The breaker's half-open delay runs on cockatiel's own clock (Date.now): each test keeps clear of it on a busy machine.
  async function openBreaker(halfOpenAfterMs: number) {
    const made = makeClient({ retries: 0, breaker: { consecutiveFailures: 3, halfOpenAfterMs } });
    const failing = scriptedFetcher(serverError);
    for (let i = 0; i < 3; i++) await expect(made.client.load(`k${i}`, failing)).rejects.toMatchObject({ status: 503 });
    expect(failing.calls).toBe(3);
    return { ...made, failing };
  }

  it('opens the breaker after N consecutive failures: state down, fails fast without calling', async () => {
    const { client, health, failing } = await openBreaker(10_000);
    expect(health().state).toBe('down');

    // Fails fast: answered before the event loop turns once, so no timer and no I/O stood in between.
    const failedFast = client.load('k9', failing).catch((e: unknown) => e);
    const immediate = new Promise((resolve) => setImmediate(resolve, 'the next turn of the event loop'));
    expect(await Promise.race([failedFast, immediate])).toMatchObject({
      status: 503,
      message: 'test-source is unavailable',
    });
    expect(failing.calls).toBe(3);
    expect(health()).toMatchObject({ state: 'down', lastError: 'HTTP 502 on GET /x' });
  });

  it('an open breaker lets one trial call through after halfOpenAfterMs, and closes when it answers', async () => {
    const { client, health } = await openBreaker(50);
    await new Promise((r) => setTimeout(r, 60));
    expect(await client.load('k10', async () => 'back')).toBe('back');
    expect(health().state).toBe('up');
  });

  it('serves stale while the breaker is open', async () => {
    const { client, clock } = makeClient({
      freshnessMs: 100,
      retries: 0,
      breaker: { consecutiveFailures: 1, halfOpenAfterMs: 10_000 },
    });
    await client.load('eth', async () => 'cached');
    await expect(client.load('other', serverError)).rejects.toMatchObject({ status: 503 });
    clock.advance(200);
    const fetcher = scriptedFetcher(async () => 'fresh');
    expect(await client.load('eth', fetcher)).toBe('cached');
    expect(fetcher.calls).toBe(0);
  });

  it('lets a 4xx ApiError from the fetcher through untouched, unretried, and not counted as a failure', async () => {
    const { client, health } = makeClient({ breaker: { consecutiveFailures: 1, halfOpenAfterMs: 10_000 } });
    const notThere = notFound('no such coin');
    const fetcher = scriptedFetcher(() => Promise.reject(notThere));

    await expect(client.load('coin', fetcher)).rejects.toBe(notThere);
    await expect(client.load('coin', fetcher)).rejects.toBe(notThere);
    expect(fetcher.calls).toBe(2);
    expect(health()).toMatchObject({ state: 'up', lastError: null });
    expect(await client.load('other', async () => 'breaker still closed')).toBe('breaker still closed');
  });

  it('never leaks upstream detail into the 503 or secrets into the health page', async () => {
    const { client, health } = makeClient({ retries: 0 });
    const leaky = new UpstreamError('HTTP 500 from https://user:pw@api.example.com/v1/price?apikey=s3cret', {
      status: 500,
      retryable: false,
    });
    const error = await client.load('k', () => Promise.reject(leaky)).catch((e: Error) => e);
    expect(error.message).toBe('test-source is unavailable');
    expect(health().lastError).toBe('HTTP 500 from https://api.example.com/v1/price');

    const bug = await client.load('k2', () => Promise.reject(new Error('token=abc at db'))).catch((e: Error) => e);
    expect(bug).toMatchObject({ status: 503, message: 'test-source is unavailable' });
    expect(health().lastError).toBe('unexpected Error');
  });
});
