import { ApiError } from '../errors/api-error.js';
import type { SourceClient } from './source-client.js';
import { UpstreamError } from './upstream-failure.js';

/** Query parameters of an upstream request; undefined values are left out. */
export type UpstreamQuery = Record<string, string | number | boolean | undefined>;

/** Options of {@link HttpJsonSource.getJson}. */
export interface GetJsonOptions {
  query?: UpstreamQuery;
  /** Cache and single-flight key. Default: method, path and sorted query. */
  cacheKey?: string;
  freshnessMs?: number;
  /** What an upstream 404 becomes: null (cached like any answer) or a 404 `ApiError` for our caller. Default 'null'. */
  notFound?: 'null' | 'error';
  /** For upstreams that say "no such thing" with another 4xx than 404 (Snapchain: 400 {error, error_detail}). */
  notFoundWhen?: (status: number, body: unknown) => boolean;
}

/** Options of {@link HttpJsonSource.postJson}. */
export interface PostJsonOptions {
  query?: UpstreamQuery;
  /** Cache key; without one the reply is neither cached nor shared between callers. */
  cacheKey?: string;
  freshnessMs?: number;
  /** Safe to repeat (e.g. a read-only JSON-RPC or GraphQL query)? Only then is it retried. Default false. */
  idempotent?: boolean;
  notFound?: 'null' | 'error';
}

/** What {@link HttpJsonSource} tells its `onRequest` hook about each request it sends. */
export interface UpstreamRequestInfo {
  method: 'GET' | 'POST';
  /** The path relative to the base URL, without the query string (which may carry keys). */
  path: string;
}

/** Where a JSON-over-HTTP upstream lives and how to reach it. */
export interface HttpJsonSourceParams {
  baseUrl: string;
  /** Sent on every request, e.g. an API key header. Never logged, never put in an error. */
  headers?: Record<string, string>;
  client: SourceClient;
  /** Called once per HTTP request actually sent (retries included). */
  onRequest?: (request: UpstreamRequestInfo) => void;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
}

const RETRY_AFTER_CEILING_MS = 60_000;

/**
 * Parses a Retry-After header (delta-seconds or HTTP date) into milliseconds.
 * @example parseRetryAfter('2', Date.now()) // 2000
 */
export function parseRetryAfter(header: string | null, nowMs: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const trimmed = header.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - nowMs;
  return Number.isFinite(ms) ? Math.min(Math.max(0, ms), RETRY_AFTER_CEILING_MS) : undefined;
}

function sortedQueryString(query: UpstreamQuery | undefined): string {
  const params = new URLSearchParams();
  for (const key of Object.keys(query ?? {}).sort()) {
    const value = query?.[key];
    if (value !== undefined) params.append(key, String(value));
  }
  return params.toString();
}

/**
 * A JSON-over-HTTP upstream (CoinGecko, DefiLlama, Neynar …) reached through a {@link SourceClient}:
 * 2xx → parsed JSON, 404 → null, 429 and 5xx → retried, anything else → 503 for our caller.
 * @example
 * const coingecko = new HttpJsonSource({ baseUrl: 'https://api.coingecko.com', headers: { 'x-cg-demo-api-key': key }, client })
 * const prices = await coingecko.getJson<SimplePriceReply>('/api/v3/simple/price', { query: { ids: 'ethereum', vs_currencies: 'usd' } })
 */
export class HttpJsonSource {
  private readonly baseUrl: string;
  private readonly headers: Record<string, string>;
  private readonly client: SourceClient;
  private readonly onRequest: ((request: UpstreamRequestInfo) => void) | undefined;
  private readonly fetchImpl: typeof fetch;
  private sentRequests = 0;

  constructor(params: HttpJsonSourceParams) {
    this.baseUrl = params.baseUrl.replace(/\/+$/, '');
    this.headers = { ...params.headers };
    this.client = params.client;
    this.onRequest = params.onRequest;
    this.fetchImpl = params.fetch ?? fetch;
  }

  /** HTTP requests actually sent to the upstream (cache hits and shared in-flight calls send none). */
  get requestCount(): number {
    return this.sentRequests;
  }

  /**
   * GETs JSON from `path` (relative to the base URL), cached for the source's freshness.
   * @example await source.getJson<{ coins: unknown }>('/prices/current/ethereum:0x…', { freshnessMs: 30_000 })
   */
  getJson<T>(path: string, opts: GetJsonOptions = {}): Promise<T | null> {
    return this.getMapped<T>(path, undefined, opts);
  }

  /**
   * GETs JSON and maps it into the caller's own type inside the upstream call: a reply of the wrong shape
   * (`map` throws) is an upstream failure — reported to health, never cached, 503 for our caller — not a value;
   * an `UpstreamError` thrown by `map` keeps its own message and retryability.
   * Two different maps of one path need distinct `cacheKey`s.
   * @example await coinbase.getMapped('/v2/prices/ETH-USD/spot', toSpotQuote)
   */
  getMapped<T>(path: string, map: ((json: unknown) => T) | undefined, opts: GetJsonOptions = {}): Promise<T | null> {
    const query = sortedQueryString(opts.query);
    // A 404 read as null must not be served from cache to a caller who wants the 404 error.
    const cacheKey =
      opts.cacheKey ??
      `GET ${path}${query === '' ? '' : `?${query}`}${opts.notFound === 'error' ? ' !404' : ''}${map ? ' mapped' : ''}`;
    return this.client.load<T | null>(
      cacheKey,
      async (signal) => {
        const json = await this.request<unknown>({
          method: 'GET',
          path,
          query,
          body: undefined,
          notFound: opts.notFound,
          notFoundWhen: opts.notFoundWhen,
          signal,
        });
        if (json === null || map === undefined) return json as T | null;
        try {
          return map(json);
        } catch (err) {
          // A map may recognise an upstream's in-band refusal (e.g. a rate limit inside a 200 reply) and say so.
          if (err instanceof UpstreamError) throw err;
          throw new UpstreamError(`unexpected reply shape on GET ${path.startsWith('/') ? path : `/${path}`}`, {
            retryable: false,
          });
        }
      },
      { idempotent: true, ...(opts.freshnessMs === undefined ? {} : { freshnessMs: opts.freshnessMs }) },
    );
  }

  /**
   * POSTs a JSON body to `path`; not retried unless `idempotent`, not cached unless `cacheKey` is given.
   * @example await subgraph.postJson<{ data: unknown }>('/subgraphs/ens', { query }, { idempotent: true, cacheKey: `ens:${name}` })
   */
  postJson<T>(path: string, body: unknown, opts: PostJsonOptions = {}): Promise<T | null> {
    const query = sortedQueryString(opts.query);
    return this.client.load<T | null>(
      opts.cacheKey ?? `POST ${path}`,
      (signal) => this.request<T>({ method: 'POST', path, query, body, notFound: opts.notFound, signal }),
      {
        idempotent: opts.idempotent ?? false,
        cache: opts.cacheKey !== undefined,
        ...(opts.freshnessMs === undefined ? {} : { freshnessMs: opts.freshnessMs }),
      },
    );
  }

  /**
   * POSTs a JSON body and maps the reply inside the upstream call, as {@link getMapped} does for GET: a reply of the
   * wrong shape (`map` throws) is an upstream failure — reported to health, never cached, 503 for our caller.
   * @example await subgraph.postMapped('/subgraphs/name/ensdomains/ens', { query, variables }, toDomains, { idempotent: true, cacheKey })
   */
  postMapped<T>(path: string, body: unknown, map: (json: unknown) => T, opts: PostJsonOptions = {}): Promise<T | null> {
    const query = sortedQueryString(opts.query);
    const where = `POST ${path.startsWith('/') ? path : `/${path}`}`;
    return this.client.load<T | null>(
      opts.cacheKey ?? where,
      async (signal) => {
        const json = await this.request<unknown>({
          method: 'POST',
          path,
          query,
          body,
          notFound: opts.notFound,
          signal,
        });
        if (json === null) return null;
        try {
          return map(json);
        } catch {
          throw new UpstreamError(`unexpected reply shape on ${where}`, { retryable: false });
        }
      },
      {
        idempotent: opts.idempotent ?? false,
        cache: opts.cacheKey !== undefined,
        ...(opts.freshnessMs === undefined ? {} : { freshnessMs: opts.freshnessMs }),
      },
    );
  }

  private async request<T>(params: {
    method: 'GET' | 'POST';
    path: string;
    query: string;
    body: unknown;
    notFound: 'null' | 'error' | undefined;
    notFoundWhen?: ((status: number, body: unknown) => boolean) | undefined;
    signal: AbortSignal;
  }): Promise<T | null> {
    const { method, path, query, body, signal } = params;
    const relativePath = path.startsWith('/') ? path : `/${path}`;
    const url = `${this.baseUrl}${relativePath}${query === '' ? '' : `?${query}`}`;
    // Only the method and path go into error messages: query strings and base URLs may carry keys.
    const what = `${method} ${relativePath}`;
    const headers: Record<string, string> = { accept: 'application/json', ...this.headers };
    if (body !== undefined) headers['content-type'] = 'application/json';

    this.sentRequests += 1;
    this.onRequest?.({ method, path: relativePath });
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method,
        headers,
        signal,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (err) {
      if (signal.aborted) throw err;
      throw new UpstreamError(`network error on ${what}`, { retryable: true });
    }

    if (response.ok) return this.parseJson<T>(response, what, signal);
    const status = response.status;
    const saysNotFound =
      status === 404 ||
      (params.notFoundWhen !== undefined &&
        status >= 400 &&
        status < 500 &&
        status !== 429 &&
        params.notFoundWhen(status, await this.readRefusalBody(response, signal)));
    await response.body?.cancel().catch(() => undefined);
    if (saysNotFound) {
      if (params.notFound === 'error') throw new ApiError('NOT_FOUND', 'not found');
      return null;
    }
    if (status === 429) {
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), Date.now());
      throw new UpstreamError(`rate limited (HTTP 429) on ${what}`, {
        status,
        retryable: true,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      });
    }
    if (status >= 500) throw new UpstreamError(`HTTP ${status} on ${what}`, { status, retryable: true });
    // Any other refusal means our request was wrong for this upstream: asking again will not help.
    throw new UpstreamError(`HTTP ${status} on ${what}`, { status, retryable: false });
  }

  /** The JSON body of a refusal, or undefined when it is not JSON (or cannot be read). */
  private async readRefusalBody(response: Response, signal: AbortSignal): Promise<unknown> {
    try {
      return JSON.parse(await response.text());
    } catch (err) {
      if (signal.aborted) throw err;
      return undefined;
    }
  }

  private async parseJson<T>(response: Response, what: string, signal: AbortSignal): Promise<T | null> {
    if (response.status === 204) return null;
    let text: string;
    try {
      text = await response.text();
    } catch (err) {
      if (signal.aborted) throw err;
      throw new UpstreamError(`network error reading ${what}`, { retryable: true });
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new UpstreamError(`malformed JSON reply on ${what}`, { status: response.status, retryable: false });
    }
  }
}
