import type { SourceHealthRegistry, SourceMode } from '../source-health.js';
import type { SourcePolicy } from '../source-policy.js';

/** SPEC "Data freshness": token prices 30 seconds. */
export const PRICE_FRESHNESS_MS = 30_000;

/** What every price client is built from: where the upstream is, and how it is watched. */
export interface PriceClientParams {
  /** Origin of the upstream (or of its replay), e.g. https://api.coinbase.com. */
  baseUrl: string;
  /** live = the real upstream; local = the replay of recorded replies. */
  mode: SourceMode;
  registry: SourceHealthRegistry;
  /** Per attempt (UPSTREAM_TIMEOUT_MS). */
  timeoutMs: number;
  /** Overrides of the source policy (tests shorten retries and backoff). */
  policy?: Partial<Omit<SourcePolicy, 'name' | 'kind' | 'mode'>>;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /** Clock for cache freshness. */
  now?: () => number;
}
