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

/** Bytes of keys and bodies kept at most (entries live a second at most anyway). */
const MAX_BYTES = 16 * 1024 * 1024;
/** What an entry holds besides its key and body: the Map slot, the entry and its promise. */
const ENTRY_OVERHEAD_BYTES = 200;

interface Entry {
  body: Promise<string>;
  /** The body's UTF-8 bytes once it is rendered: what a hit sends with no await and no encoding. */
  rendered: Buffer | undefined;
  expiresAt: number;
  /** Its key's and (once rendered) its body's bytes, with ENTRY_OVERHEAD_BYTES. */
  bytes: number;
}

/**
 * The micro-cache key of a cacheable row's request: the row, its path parameters and only the query parameters the
 * row declares, in the order it declares them. A parameter the row does not take cannot make a new entry (the row's
 * schema drops it, so the answer is the same), and neither can the order parameters come in.
 * @example responseCacheKey(row)({ params: {}, query: { chain: 'base', pad: 'x' } }) // 'getGasPrices{}"base",'
 */
export function responseCacheKey(
  row: Pick<OperationRow, 'id' | 'params'>,
): (request: { params: unknown; query: unknown }) => string {
  const declared = Object.keys(row.params?.query?.shape ?? {});
  // Concatenated, not one JSON.stringify of an array: this runs on every call of a cached row. Each path parameter is
  // `/name=value` and each declared query parameter `value,` (null when absent), values JSON-encoded: unambiguous.
  return ({ params, query }) => {
    let key = `${row.id}{`;
    const path = (params ?? {}) as Record<string, unknown>;
    for (const name in path) key += `/${name}=${JSON.stringify(path[name])}`;
    key += '}';
    const asked = (query ?? {}) as Record<string, unknown>;
    for (const name of declared) key += `${JSON.stringify(asked[name] ?? null)},`;
    return key;
  };
}

/** A JS string's own bytes (UTF-16). */
const stringBytes = (text: string): number => text.length * 2;

/**
 * A micro-cache of serialized bodies for cacheable GET rows (those with `maxAge`, whose answer depends only on
 * the request URL): within a second, repeated calls skip validation and the GraphQL execution, never the access
 * layer. Concurrent misses share one execution. Failures are never kept. Bounded by bytes (keys and bodies): each
 * insertion first drops the entries that have expired (a Map in insertion order is in order of expiry, since every
 * entry lives RESPONSE_CACHE_MAX_MS), then the oldest ones past MAX_BYTES.
 * @example const body = cache.fresh(key) ?? cache.get(key, ttlMs, () => render())
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxBytes = MAX_BYTES,
  ) {}

  /** The body stored under `key` if it is still fresh. */
  fresh(key: string): Promise<string> | undefined {
    const hit = this.entries.get(key);
    return hit && hit.expiresAt > this.now() ? hit.body : undefined;
  }

  /**
   * The UTF-8 bytes of the body stored under `key` if it is still fresh and rendered already (undefined while its
   * render runs): a hit answered without waiting on a promise, and sent as bytes (no encoding per answer).
   */
  ready(key: string): Buffer | undefined {
    const hit = this.entries.get(key);
    return hit !== undefined && hit.expiresAt > this.now() ? hit.rendered : undefined;
  }

  /** The fresh body under `key`, else the one `render` makes (kept for `ttlMs`, at most RESPONSE_CACHE_MAX_MS). */
  get(key: string, ttlMs: number, render: () => Promise<string>): Promise<string> {
    const at = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > at) return hit.body;
    // Re-inserted at the end, so the Map's order stays the order of expiry.
    if (hit) this.remove(key, hit);
    this.dropExpired(at);
    const body = render();
    const entry: Entry = {
      body,
      rendered: undefined,
      expiresAt: at + Math.min(ttlMs, RESPONSE_CACHE_MAX_MS),
      bytes: ENTRY_OVERHEAD_BYTES + stringBytes(key),
    };
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    this.fit();
    body.then(
      (text) => {
        if (this.entries.get(key) !== entry) return;
        entry.rendered = Buffer.from(text, 'utf8');
        const held = stringBytes(text) + entry.rendered.length;
        entry.bytes += held;
        this.bytes += held;
        this.fit();
      },
      () => {
        if (this.entries.get(key) === entry) this.remove(key, entry);
      },
    );
    return body;
  }

  /** Entries held. */
  get size(): number {
    return this.entries.size;
  }

  /** Bytes held (keys, rendered bodies as text and as UTF-8, per-entry overhead). */
  get heldBytes(): number {
    return this.bytes;
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }

  private dropExpired(at: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt > at) return;
      this.remove(key, entry);
    }
  }

  private fit(): void {
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) return;
      this.remove(key, entry);
    }
  }
}
