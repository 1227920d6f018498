import type { OperationRow } from '../../rest-compat/route-row.js';

/**
 * The longest a rendered body is reused; each source's own freshness (the data-freshness table,
 * docs/api-contract.md#data-freshness) still governs the data.
 */
export const RESPONSE_CACHE_MAX_MS = 1000;
/**
 * Whether a row answers every caller alike for the same request within its maxAge, so that its body may be reused:
 * a GET row with `maxAge` (its URL, or a tool's arguments, decide its input; no body, no CCIP codes).
 */
export function isCacheableRow(row: Pick<OperationRow, 'method' | 'maxAge' | 'envelope'>): boolean {
  return row.method === 'GET' && row.maxAge !== undefined && row.maxAge > 0 && row.envelope !== 'ccip';
}

/** Bodies kept at most; past it the oldest entry goes (entries live a second at most anyway). */
const MAX_ENTRIES = 10_000;

interface Entry {
  body: Promise<string>;
  expiresAt: number;
}

/**
 * A micro-cache of serialized bodies for cacheable GET rows (those with `maxAge`, whose answer depends only on
 * the request URL): within a second, repeated calls skip validation and the GraphQL execution, never the access
 * layer. Concurrent misses share one execution. Failures are never kept. A Map in insertion order is the whole
 * eviction policy: every entry expires within RESPONSE_CACHE_MAX_MS, so the oldest is also the least useful.
 * @example const body = cache.fresh(key) ?? cache.get(key, ttlMs, () => render())
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxEntries = MAX_ENTRIES,
  ) {}

  /** The body stored under `key` if it is still fresh. */
  fresh(key: string): Promise<string> | undefined {
    const hit = this.entries.get(key);
    return hit && hit.expiresAt > this.now() ? hit.body : undefined;
  }

  /** The fresh body under `key`, else the one `render` makes (kept for `ttlMs`, at most RESPONSE_CACHE_MAX_MS). */
  get(key: string, ttlMs: number, render: () => Promise<string>): Promise<string> {
    const at = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > at) return hit.body;
    const body = render();
    const entry = { body, expiresAt: at + Math.min(ttlMs, RESPONSE_CACHE_MAX_MS) };
    // Re-inserted at the end, so the Map's order stays the order of expiry.
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, entry);
    body.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return body;
  }

  get size(): number {
    return this.entries.size;
  }
}
