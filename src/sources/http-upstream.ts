import { HttpJsonSource } from './http-json-source.js';
import { SourceClient, type SourceTiming } from './source-client.js';
import type { SourceHealthRegistry, SourceMode } from './source-health.js';
import type { SourcePolicy } from './source-policy.js';

/** Where one HTTP upstream is (or its replay) and how it is watched. */
export interface HttpUpstreamParams extends SourceTiming {
  /** Origin of the upstream (or of its replay), e.g. https://api.coinbase.com. */
  baseUrl: string;
  /** live = the real upstream; local = the replay of recorded replies. */
  mode: SourceMode;
  registry: SourceHealthRegistry;
  /** Deadline of one upstream call, its retries included (UPSTREAM_TIMEOUT_MS). */
  timeoutMs: number;
  /** Sent on every request (API keys); never logged. */
  headers?: Record<string, string>;
  /** Overrides of the source policy (tests shorten retries and backoff). */
  policy?: Partial<Omit<SourcePolicy, 'name' | 'kind' | 'mode'>>;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
}

/** Where the replay of recorded replies serves each upstream it records (the embedded replay server is one). */
export interface ReplayUrls {
  /** The base URL a source client uses instead of the real upstream's. */
  baseUrlFor(source: string): string;
}

/** What a client of one upstream is built from: where the upstream is and how it is watched (headers are its own). */
export type UpstreamClientParams = Omit<HttpUpstreamParams, 'headers'>;

/** What one upstream is: its name and kind in /api/sources/health, what it serves, how long a reply stays fresh. */
export interface UpstreamIdentity {
  name: string;
  kind: string;
  /** What the live upstream is; local mode appends ': replay of recorded replies'. */
  description: string;
  freshnessMs: number;
}

/**
 * The source client of one upstream, registered for /api/sources/health under `name` (for upstreams with several hosts).
 * @example const client = upstreamSourceClient({ name: 'alchemy-nft', kind: 'nft', description: 'Alchemy NFT API v3', freshnessMs: 60_000, mode, registry, timeoutMs })
 */
export function upstreamSourceClient(
  p: UpstreamIdentity & Omit<HttpUpstreamParams, 'baseUrl' | 'headers' | 'fetch'>,
): SourceClient {
  return new SourceClient({
    policy: {
      name: p.name,
      kind: p.kind,
      mode: p.mode,
      description: p.mode === 'live' ? p.description : `${p.description}: replay of recorded replies`,
      freshnessMs: p.freshnessMs,
      timeoutMs: p.timeoutMs,
      ...p.policy,
    },
    registry: p.registry,
    now: p.now,
    monotonicNow: p.monotonicNow,
    sleep: p.sleep,
    random: p.random,
  });
}

/**
 * The source client and HTTP source of one upstream, registered for /api/sources/health under `name`.
 * @example const { client, http } = httpUpstream({ name: 'coinbase', kind: 'prices', description: 'Coinbase spot prices API v2', freshnessMs: 30_000, ...params })
 */
export function httpUpstream(p: UpstreamIdentity & HttpUpstreamParams): { client: SourceClient; http: HttpJsonSource } {
  const client = upstreamSourceClient(p);
  const http = new HttpJsonSource({ baseUrl: p.baseUrl, client, headers: p.headers, fetch: p.fetch });
  return { client, http };
}
