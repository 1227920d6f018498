import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { RESPONSE_CACHE_MAX_MS, ResponseCache, responseCacheKey } from '../../src/http/response-cache.js';

/** A clock the test moves by hand. */
function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

/** A render that counts its calls and answers `body-<n>`. */
function counted() {
  let calls = 0;
  const render = vi.fn(async () => `body-${++calls}`);
  return render;
}

describe('the response micro-cache', () => {
  it('caps the reuse of a body at one second', () => {
    expect(RESPONSE_CACHE_MAX_MS).toBe(1000);
  });

  it('reuses the body within the TTL without rendering again', async () => {
    const time = clock();
    const cache = new ResponseCache(time.now);
    const render = counted();

    expect(await cache.get('/api/a', 500, render)).toBe('body-1');
    time.advance(499);
    expect(await cache.get('/api/a', 500, render)).toBe('body-1');
    expect(render).toHaveBeenCalledTimes(1);
  });

  it('hands out a rendered body as UTF-8 bytes while it is fresh, and nothing while it renders', async () => {
    const time = clock();
    const cache = new ResponseCache(time.now);
    let finish!: (body: string) => void;
    const body = cache.get('/api/a', 500, () => new Promise<string>((resolve) => (finish = resolve)));

    expect(cache.ready('/api/a')).toBeUndefined();
    finish('{"price":"1€"}');
    await body;
    expect(cache.ready('/api/a')?.equals(Buffer.from('{"price":"1€"}', 'utf8'))).toBe(true);
    time.advance(500);
    expect(cache.ready('/api/a')).toBeUndefined();
  });

  it('renders again once the TTL has passed', async () => {
    const time = clock();
    const cache = new ResponseCache(time.now);
    const render = counted();

    await cache.get('/api/a', 500, render);
    time.advance(500);
    expect(await cache.get('/api/a', 500, render)).toBe('body-2');
    expect(render).toHaveBeenCalledTimes(2);
  });

  it('keeps the bodies of different keys apart', async () => {
    const cache = new ResponseCache(clock().now);

    expect(await cache.get('/api/a', 500, async () => 'a')).toBe('a');
    expect(await cache.get('/api/b', 500, async () => 'b')).toBe('b');
    expect(await cache.fresh('/api/a')).toBe('a');
    expect(await cache.fresh('/api/b')).toBe('b');
  });

  it('shares one render between concurrent misses', async () => {
    const cache = new ResponseCache(clock().now);
    let finish!: (body: string) => void;
    const render = vi.fn(() => new Promise<string>((resolve) => (finish = resolve)));

    const first = cache.get('/api/slow', 500, render);
    const second = cache.get('/api/slow', 500, render);
    finish('slow body');

    expect(await Promise.all([first, second])).toEqual(['slow body', 'slow body']);
    expect(render).toHaveBeenCalledTimes(1);
  });

  it('keeps a body no longer than RESPONSE_CACHE_MAX_MS even when asked for longer', async () => {
    const time = clock();
    const cache = new ResponseCache(time.now);
    const render = counted();

    await cache.get('/api/a', 60_000, render);
    time.advance(RESPONSE_CACHE_MAX_MS - 1);
    expect(cache.fresh('/api/a')).toBeDefined();
    time.advance(1);
    expect(cache.fresh('/api/a')).toBeUndefined();
    expect(await cache.get('/api/a', 60_000, render)).toBe('body-2');
    expect(render).toHaveBeenCalledTimes(2);
  });

  it('answers fresh with the stored body until it expires, then with undefined', async () => {
    const time = clock();
    const cache = new ResponseCache(time.now);

    expect(cache.fresh('/api/a')).toBeUndefined();
    await cache.get('/api/a', 200, async () => 'stored');
    time.advance(199);
    expect(await cache.fresh('/api/a')).toBe('stored');
    time.advance(1);
    expect(cache.fresh('/api/a')).toBeUndefined();
  });

  it('does not keep a failed render: the next get renders again', async () => {
    const cache = new ResponseCache(clock().now);
    const failing = vi.fn(async () => {
      throw new Error('upstream down');
    });

    await expect(cache.get('/api/a', 500, failing)).rejects.toThrow('upstream down');
    expect(cache.fresh('/api/a')).toBeUndefined();
    expect(cache.size).toBe(0);

    const render = counted();
    expect(await cache.get('/api/a', 500, render)).toBe('body-1');
    expect(render).toHaveBeenCalledTimes(1);
    expect(failing).toHaveBeenCalledTimes(1);
  });

  /** The bytes an entry of a two-character key and a two-character body holds: 200 overhead, 4 + 4, 2 as UTF-8. */
  const SMALL_ENTRY = 210;

  it('drops the oldest key when a new one would pass its bound in bytes', async () => {
    const cache = new ResponseCache(clock().now, 3 * SMALL_ENTRY);

    for (const key of ['k1', 'k2', 'k3']) await cache.get(key, 500, async () => key);
    expect(cache.heldBytes).toBe(3 * SMALL_ENTRY);
    await cache.get('k4', 500, async () => 'k4');

    expect(cache.size).toBe(3);
    expect(cache.heldBytes).toBe(3 * SMALL_ENTRY);
    expect(cache.fresh('k1')).toBeUndefined();
    expect(await cache.fresh('k2')).toBe('k2');
    expect(await cache.fresh('k4')).toBe('k4');
  });

  it('never holds more bytes than its bound, whatever the sizes of the bodies', async () => {
    const time = clock();
    const cache = new ResponseCache(time.now, 10_000);

    for (let i = 0; i < 50; i++) {
      await cache.get(`k${i % 7}`, 1000, async () => 'x'.repeat(i * 100));
      time.advance(10);
      expect(cache.heldBytes).toBeLessThanOrEqual(10_000);
    }
    expect(cache.size).toBeGreaterThan(0);
  });

  it('drops the entries that have expired when another is added, so an idle burst leaves nothing behind', async () => {
    const time = clock();
    const cache = new ResponseCache(time.now);

    for (let i = 0; i < 100; i++) await cache.get(`k${i}`, 1000, async () => 'x'.repeat(15_000));
    expect(cache.size).toBe(100);
    time.advance(RESPONSE_CACHE_MAX_MS);
    await cache.get('next', 1000, async () => 'next');

    expect(cache.size).toBe(1);
    expect(cache.heldBytes).toBe(200 + 8 + 8 + 4);
  });

  it('renders an expired key again at the newest position, so the oldest entry goes first', async () => {
    const time = clock();
    const cache = new ResponseCache(time.now, 3 * SMALL_ENTRY);

    await cache.get('k1', 100, async () => 'o1');
    await cache.get('k2', 500, async () => 'k2');
    time.advance(100);
    await cache.get('k1', 500, async () => 'n1');
    await cache.get('k3', 500, async () => 'k3');
    await cache.get('k4', 500, async () => 'k4');

    expect(cache.fresh('k2')).toBeUndefined();
    expect(await cache.fresh('k1')).toBe('n1');
  });
});

describe('the micro-cache key of a request', () => {
  const row = {
    id: 'getGasPrices',
    params: { query: z.object({ chain: z.string().optional(), blocks: z.string().optional() }) },
  };
  const keyOf = responseCacheKey(row);

  it('leaves out query parameters the row does not declare: a padded URL makes no new entry', () => {
    expect(keyOf({ params: {}, query: { chain: 'base', pad: 'x'.repeat(15_000) } })).toBe(
      keyOf({ params: {}, query: { chain: 'base' } }),
    );
    expect(keyOf({ params: {}, query: { pad: 'x' } }).length).toBeLessThan(40);
  });

  it('takes the declared parameters in the order the row declares them, whatever order the URL has', () => {
    expect(keyOf({ params: {}, query: { blocks: '5', chain: 'base' } })).toBe(
      keyOf({ params: {}, query: { chain: 'base', blocks: '5' } }),
    );
  });

  it('keeps apart what the row reads: absent, empty, repeated and different values, and the path parameters', () => {
    const keys = [
      keyOf({ params: {}, query: {} }),
      keyOf({ params: {}, query: { chain: '' } }),
      keyOf({ params: {}, query: { chain: ['base', 'base'] } }),
      keyOf({ params: {}, query: { chain: 'base' } }),
      keyOf({ params: { name: 'a' }, query: { chain: 'base' } }),
      responseCacheKey({ id: 'other' })({ params: {}, query: {} }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });
});
