import { describe, expect, it, vi } from 'vitest';
import { RESPONSE_CACHE_MAX_MS, ResponseCache } from '../../src/http/response-cache.js';

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

  it('drops the oldest key when a fourth is added to a cache of three', async () => {
    const cache = new ResponseCache(clock().now, 3);

    for (const key of ['k1', 'k2', 'k3']) await cache.get(key, 500, async () => key);
    expect(cache.size).toBe(3);
    await cache.get('k4', 500, async () => 'k4');

    expect(cache.size).toBe(3);
    expect(cache.fresh('k1')).toBeUndefined();
    expect(await cache.fresh('k2')).toBe('k2');
    expect(await cache.fresh('k3')).toBe('k3');
    expect(await cache.fresh('k4')).toBe('k4');
  });

  it('never holds more entries than its bound', async () => {
    const time = clock();
    const cache = new ResponseCache(time.now, 3);

    for (let i = 0; i < 20; i++) {
      await cache.get(`k${i % 7}`, 500, async () => `v${i}`);
      time.advance(100);
      expect(cache.size).toBeLessThanOrEqual(3);
    }
    expect(cache.size).toBe(3);
  });

  it('counts a re-rendered key once, at its newest position', async () => {
    const time = clock();
    const cache = new ResponseCache(time.now, 3);

    await cache.get('k1', 100, async () => 'k1-old');
    await cache.get('k2', 500, async () => 'k2');
    time.advance(100);
    // k1 expired and is rendered again: it becomes the newest entry, so k2 is now the oldest.
    await cache.get('k1', 500, async () => 'k1-new');
    await cache.get('k3', 500, async () => 'k3');
    expect(cache.size).toBe(3);
    await cache.get('k4', 500, async () => 'k4');

    expect(cache.size).toBe(3);
    expect(cache.fresh('k2')).toBeUndefined();
    expect(await cache.fresh('k1')).toBe('k1-new');
  });
});
