import type { HttpJsonSource } from '../http-json-source.js';
import { httpUpstream } from '../http-upstream.js';
import type { SourceClient } from '../source-client.js';
import {
  apiKeyHeader,
  type FarcasterClientParams,
  SOCIAL_LIST_FRESHNESS_MS,
  SOCIAL_PROFILE_FRESHNESS_MS,
} from './farcaster-client-params.js';
import type { FarcasterCastRecord, FarcasterPage, FarcasterProfile } from './farcaster-records.js';
import {
  mapNeynarBulkUsers,
  mapNeynarCastPage,
  mapNeynarFollowersPage,
  mapNeynarUserResponse,
  mapNeynarUserSearch,
  mapNeynarUsersByAddress,
} from './neynar-replies.js';

/** Neynar's documented page limits (neynarxyz/OAS). */
export const NEYNAR_LIMITS = {
  bulkFids: 100,
  bulkAddresses: 100,
  followers: 100,
  userCasts: 150,
  search: 10,
  feed: 100,
} as const;

const cursorQuery = (cursor: string | undefined) => (cursor === undefined ? {} : { cursor });

/**
 * Neynar API v2 (api.neynar.com/v2/farcaster/…/, key in `x-api-key`; paths end in `/` as the contract writes them): users by name, FID and verified address,
 * a user's casts, followers, user search and the global trending feed, each mapped into our records at the edge.
 * @example
 * const neynar = new NeynarClient({ baseUrl: 'https://api.neynar.com', apiKey, mode: 'live', registry, timeoutMs: 5000 })
 * const users = await neynar.usersByFids([3, 2]) // one user/bulk request
 */
export class NeynarClient {
  readonly client: SourceClient;
  readonly http: HttpJsonSource;

  constructor(p: FarcasterClientParams) {
    const baseUrl = p.baseUrl.replace(/\/+$/, '').replace(/\/v2(\/farcaster)?$/, '');
    ({ client: this.client, http: this.http } = httpUpstream({
      ...p,
      name: 'neynar',
      kind: 'social',
      description: 'Neynar API v2 (Farcaster)',
      freshnessMs: SOCIAL_PROFILE_FRESHNESS_MS,
      baseUrl,
      headers: apiKeyHeader(p.apiKey),
    }));
  }

  /** The user holding this fname or ENS username; null when none does (Neynar answers 404). */
  userByUsername(username: string): Promise<FarcasterProfile | null> {
    return this.http.getMapped('/v2/farcaster/user/by_username/', mapNeynarUserResponse, { query: { username } });
  }

  /** Up to 100 users in ONE request; FIDs Neynar does not know are absent from the map. */
  async usersByFids(fids: readonly number[]): Promise<Map<number, FarcasterProfile>> {
    const unique = [...new Set(fids)].sort((a, b) => a - b);
    if (unique.length === 0) return new Map();
    if (unique.length > NEYNAR_LIMITS.bulkFids)
      throw new RangeError(`user/bulk takes at most ${NEYNAR_LIMITS.bulkFids} FIDs`);
    const users = await this.http.getMapped('/v2/farcaster/user/bulk/', mapNeynarBulkUsers, {
      query: { fids: unique.join(',') },
    });
    return users ?? new Map();
  }

  /** Users whose verified addresses include each address (lower-case keys), in ONE request. */
  async usersByAddresses(addresses: readonly string[]): Promise<Map<string, FarcasterProfile[]>> {
    const unique = [...new Set(addresses.map((a) => a.toLowerCase()))].sort();
    if (unique.length === 0) return new Map();
    if (unique.length > NEYNAR_LIMITS.bulkAddresses)
      throw new RangeError(`at most ${NEYNAR_LIMITS.bulkAddresses} addresses`);
    // Neynar answers 404 when no address has a user: read as an empty map.
    const users = await this.http.getMapped('/v2/farcaster/user/bulk-by-address/', mapNeynarUsersByAddress, {
      query: { addresses: unique.join(','), address_types: 'verified_address' },
    });
    return users ?? new Map();
  }

  /** A user's casts, newest first, replies included. */
  async userCasts(fid: number, limit: number, cursor?: string): Promise<FarcasterPage<FarcasterCastRecord>> {
    const page = await this.http.getMapped('/v2/farcaster/feed/user/casts/', mapNeynarCastPage, {
      query: { fid, limit: Math.min(limit, NEYNAR_LIMITS.userCasts), include_replies: true, ...cursorQuery(cursor) },
      freshnessMs: SOCIAL_LIST_FRESHNESS_MS,
    });
    return page ?? { items: [], cursor: null };
  }

  /** A user's followers, most recent first, each a full user. */
  async followers(fid: number, limit: number, cursor?: string): Promise<FarcasterPage<FarcasterProfile>> {
    const page = await this.http.getMapped('/v2/farcaster/followers/', mapNeynarFollowersPage, {
      query: { fid, limit: Math.min(limit, NEYNAR_LIMITS.followers), ...cursorQuery(cursor) },
      freshnessMs: SOCIAL_LIST_FRESHNESS_MS,
    });
    return page ?? { items: [], cursor: null };
  }

  /** Users whose username or display name matches `q`. */
  async searchUsers(q: string, limit: number): Promise<FarcasterProfile[]> {
    const page = await this.http.getMapped('/v2/farcaster/user/search/', mapNeynarUserSearch, {
      query: { q, limit: Math.min(limit, NEYNAR_LIMITS.search) },
      freshnessMs: SOCIAL_LIST_FRESHNESS_MS,
    });
    return page?.items ?? [];
  }

  /** The global trending feed (feed_type=filter, filter_type=global_trending), each cast with its author. */
  async trendingFeed(limit: number, cursor?: string): Promise<FarcasterPage<FarcasterCastRecord>> {
    const page = await this.http.getMapped('/v2/farcaster/feed/', mapNeynarCastPage, {
      query: {
        feed_type: 'filter',
        filter_type: 'global_trending',
        limit: Math.min(limit, NEYNAR_LIMITS.feed),
        ...cursorQuery(cursor),
      },
      freshnessMs: SOCIAL_LIST_FRESHNESS_MS,
    });
    return page ?? { items: [], cursor: null };
  }
}
