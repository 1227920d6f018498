import { LRUCache } from 'lru-cache';

/** The longest a rendered body is reused; each source's own freshness (SPEC's table) still governs the data. */
export const RESPONSE_CACHE_MAX_MS = 1000;

interface Entry {
  body: Promise<string>;
  expiresAt: number;
}

/**
 * A micro-cache of serialized bodies for cacheable GET rows (those with `maxAge`, whose answer depends only on
 * their validated input): within a second, repeated calls skip the GraphQL execution, not the access layer.
 * Concurrent misses share one execution. Failures are never kept.
 * @example const body = await cache.get(key, ttlMs, () => render())
 */
export class ResponseCache {
  private readonly entries = new LRUCache<string, Entry>({ max: 10_000 });

  constructor(private readonly now: () => number = Date.now) {}

  get(key: string, ttlMs: number, render: () => Promise<string>): Promise<string> {
    const at = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > at) return hit.body;
    const body = render();
    const entry = { body, expiresAt: at + Math.min(ttlMs, RESPONSE_CACHE_MAX_MS) };
    this.entries.set(key, entry);
    body.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return body;
  }
}
