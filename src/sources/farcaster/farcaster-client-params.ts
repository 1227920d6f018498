import type { HttpUpstreamParams } from '../http-upstream.js';

/**
 * docs/api-contract.md#data-freshness: social-protocol data 1 to 5 minutes. Profiles change rarely: the upper bound.
 */
export const SOCIAL_PROFILE_FRESHNESS_MS = 5 * 60_000;
/** Casts, followers, search and feeds move: the lower bound. */
export const SOCIAL_LIST_FRESHNESS_MS = 60_000;
/** An FID's registration is an on-chain event that never changes: kept a week (bounded by the source's LRU). */
export const FID_REGISTRATION_FRESHNESS_MS = 7 * 24 * 60 * 60_000;

/** What each Farcaster client is built from: where the upstream is, how it is watched, and its key. */
export interface FarcasterClientParams extends Omit<HttpUpstreamParams, 'headers'> {
  /** Sent as `x-api-key` (Neynar's header; Neynar-hosted hubs read it too). */
  apiKey?: string | undefined;
}

export const apiKeyHeader = (apiKey: string | undefined): Record<string, string> =>
  apiKey === undefined || apiKey === '' ? {} : { 'x-api-key': apiKey };
