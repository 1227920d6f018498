import type { SourceHealthRegistry, SourceMode } from '../source-health.js';
import type { SourcePolicy } from '../source-policy.js';

/** SPEC "Data freshness": social-protocol data 1 to 5 minutes. Profiles change rarely: the upper bound. */
export const SOCIAL_PROFILE_FRESHNESS_MS = 5 * 60_000;
/** Casts, followers, search and feeds move: the lower bound. */
export const SOCIAL_LIST_FRESHNESS_MS = 60_000;

/** What each Farcaster client is built from: where the upstream is, and how it is watched. */
export interface FarcasterClientParams {
  /** Origin of the upstream (or of its replay), e.g. https://api.neynar.com. */
  baseUrl: string;
  /** Sent as `x-api-key` (Neynar's header; Neynar-hosted hubs read it too). */
  apiKey?: string | undefined;
  mode: SourceMode;
  registry: SourceHealthRegistry;
  /** Per attempt (UPSTREAM_TIMEOUT_MS). */
  timeoutMs: number;
  /** Overrides of the source policy (tests shorten retries and backoff). */
  policy?: Partial<Omit<SourcePolicy, 'name' | 'kind' | 'mode'>>;
  fetch?: typeof fetch;
  now?: () => number;
}

export const apiKeyHeader = (apiKey: string | undefined): Record<string, string> =>
  apiKey === undefined || apiKey === '' ? {} : { 'x-api-key': apiKey };
