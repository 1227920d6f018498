import { isApiError, serviceUnavailable } from '../../errors/api-error.js';
import type { SourceHealthRegistry, SourceMode } from '../source-health.js';
import type { SourcePolicy } from '../source-policy.js';
import { FarcasterHubClient, HUB_MAX_PAGE_SIZE } from './farcaster-hub-client.js';
import type { FarcasterCastRecord, FarcasterPage, FarcasterProfile } from './farcaster-records.js';
import { NEYNAR_LIMITS, NeynarClient } from './neynar-client.js';

/** Where one Farcaster upstream is: the real one (live) or the replay (local). */
export interface FarcasterUpstream {
  baseUrl: string;
  apiKey?: string | undefined;
  mode: SourceMode;
}

/** The first `count` items of a list, and whether the upstream holds more. */
export interface CollectedList<T> {
  items: T[];
  more: boolean;
}

/** A follower: the full user when the upstream sent it (Neynar), else only the FID (hub). */
export interface FollowerEntry {
  fid: number;
  profile: FarcasterProfile | null;
}

/** The shortest page an upstream answers when more items follow (Neynar's default page size). */
const MIN_FULL_PAGE = 20;

/** Reads pages from one upstream until `count` items are in hand or the list ends. */
async function collect<T>(
  count: number,
  pageSize: number,
  fetchPage: (limit: number, cursor: string | undefined) => Promise<FarcasterPage<T>>,
): Promise<CollectedList<T>> {
  const items: T[] = [];
  let cursor: string | undefined;
  // Bounded: upstreams may answer pages shorter than asked (Neynar's default is 20), but never hold us in a loop.
  const maxPages = Math.ceil(count / MIN_FULL_PAGE) + 1;
  for (let page = 0; page < maxPages && items.length < count; page += 1) {
    const reply = await fetchPage(Math.min(pageSize, count - items.length), cursor);
    items.push(...reply.items);
    if (reply.cursor === null) return { items: items.slice(0, count), more: items.length > count };
    if (reply.items.length === 0) break;
    cursor = reply.cursor;
  }
  return { items: items.slice(0, count), more: true };
}

/** An upstream failure (503), as opposed to our caller's error (4xx), which no fallback can mend. */
const isUpstreamFailure = (err: unknown): boolean => !isApiError(err) || err.status >= 500;

/**
 * Farcaster data from Neynar (primary) with a Farcaster hub as the fallback when Neynar is down or not configured.
 * Features only Neynar offers (search, the feed, users by verified address) answer 503 without it.
 * @example
 * const farcaster = createFarcasterSources({ neynar: { baseUrl, apiKey, mode: 'live' }, hub: undefined, registry, timeoutMs: 5000 })
 * await farcaster.userByUsername('dwr')
 */
export class FarcasterSources {
  constructor(
    readonly neynar: NeynarClient | undefined,
    readonly hub: FarcasterHubClient | undefined,
  ) {}

  /** Neynar first; on an upstream failure (or without Neynar) the hub. */
  private async withFallback<T>(
    what: string,
    fromNeynar: (n: NeynarClient) => Promise<T>,
    fromHub: (h: FarcasterHubClient) => Promise<T>,
  ): Promise<T> {
    if (this.neynar) {
      try {
        return await fromNeynar(this.neynar);
      } catch (err) {
        if (!this.hub || !isUpstreamFailure(err)) throw err;
      }
    }
    if (!this.hub)
      throw serviceUnavailable(
        `Farcaster ${what}: no Farcaster source is configured (set NEYNAR_API_KEY or FARCASTER_HUB_URL)`,
      );
    return fromHub(this.hub);
  }

  private neynarOnly(what: string): NeynarClient {
    if (!this.neynar)
      throw serviceUnavailable(`Farcaster ${what} needs Neynar, which is not configured (set NEYNAR_API_KEY)`);
    return this.neynar;
  }

  /** The user holding an fname or ENS username; null when nobody does. */
  userByUsername(username: string): Promise<FarcasterProfile | null> {
    return this.withFallback(
      'user lookup',
      (n) => n.userByUsername(username),
      async (h) => {
        const fid = await h.fidByUsername(username);
        return fid === null ? null : h.userByFid(fid);
      },
    );
  }

  /** Users by FID: one Neynar user/bulk request per 100; the hub, without a bulk read, asks per FID. */
  usersByFids(fids: readonly number[]): Promise<Map<number, FarcasterProfile>> {
    return this.withFallback(
      'user lookup',
      async (n) => {
        const found = new Map<number, FarcasterProfile>();
        const unique = [...new Set(fids)];
        for (let i = 0; i < unique.length; i += NEYNAR_LIMITS.bulkFids) {
          for (const [fid, user] of await n.usersByFids(unique.slice(i, i + NEYNAR_LIMITS.bulkFids)))
            found.set(fid, user);
        }
        return found;
      },
      async (h) => {
        const users = await Promise.all([...new Set(fids)].map((fid) => h.userByFid(fid)));
        return new Map(users.filter((u): u is FarcasterProfile => u !== null).map((u) => [u.fid, u]));
      },
    );
  }

  /**
   * When each FID was registered (ISO 8601), from the hub's ID Registry events: one request per FID (the hub has no
   * bulk read), each cached a week. Neynar has no such lookup; its user objects carry `registered_at` themselves.
   * An FID whose lookup failed is absent from the map (and the hub's health says so); without a hub the map is empty.
   */
  async registrationTimes(fids: readonly number[]): Promise<Map<number, string | null>> {
    const hub = this.hub;
    if (!hub) return new Map();
    const unique = [...new Set(fids)];
    const settled = await Promise.allSettled(unique.map((fid) => hub.registeredAt(fid)));
    const found = new Map<number, string | null>();
    settled.forEach((result, i) => {
      if (result.status === 'fulfilled') found.set(unique[i]!, result.value);
    });
    return found;
  }

  /** Users whose verified addresses include each address (lower-case keys). Neynar only: a hub cannot look up by address. */
  usersByAddresses(addresses: readonly string[]): Promise<Map<string, FarcasterProfile[]>> {
    return this.neynarOnly('lookup by verified address').usersByAddresses(addresses);
  }

  /** A user's newest `count` casts. */
  casts(fid: number, count: number): Promise<CollectedList<FarcasterCastRecord>> {
    return this.withFallback(
      'casts',
      (n) => collect(count, NEYNAR_LIMITS.userCasts, (limit, cursor) => n.userCasts(fid, limit, cursor)),
      (h) => collect(count, HUB_MAX_PAGE_SIZE, (limit, cursor) => h.casts(fid, limit, cursor)),
    );
  }

  /** A user's newest `count` followers: full users from Neynar, FIDs from the hub. */
  followers(fid: number, count: number): Promise<CollectedList<FollowerEntry>> {
    return this.withFallback<CollectedList<FollowerEntry>>(
      'followers',
      async (n) => {
        const list = await collect(count, NEYNAR_LIMITS.followers, (limit, cursor) => n.followers(fid, limit, cursor));
        return { items: list.items.map((u) => ({ fid: u.fid, profile: u })), more: list.more };
      },
      async (h) => {
        const list = await collect(count, HUB_MAX_PAGE_SIZE, (limit, cursor) => h.followerFids(fid, limit, cursor));
        return { items: list.items.map((f) => ({ fid: f, profile: null })), more: list.more };
      },
    );
  }

  /** Users matching `q` (Neynar only). */
  searchUsers(q: string, limit: number): Promise<FarcasterProfile[]> {
    return this.neynarOnly('user search').searchUsers(q, limit);
  }

  /** The global trending feed, one page (Neynar only). */
  trendingFeed(limit: number, cursor?: string): Promise<FarcasterPage<FarcasterCastRecord>> {
    return this.neynarOnly('feed').trendingFeed(limit, cursor);
  }
}

/**
 * Builds the Farcaster clients; either may be absent (live mode with only one configured).
 * Each registers in the health registry: `neynar` and `farcaster-hub`, kind `social`.
 */
export function createFarcasterSources(p: {
  neynar: FarcasterUpstream | undefined;
  hub: FarcasterUpstream | undefined;
  registry: SourceHealthRegistry;
  timeoutMs: number;
  policy?: Partial<Omit<SourcePolicy, 'name' | 'kind' | 'mode'>>;
}): FarcasterSources {
  const common = {
    registry: p.registry,
    timeoutMs: p.timeoutMs,
    ...(p.policy === undefined ? {} : { policy: p.policy }),
  };
  return new FarcasterSources(
    p.neynar && new NeynarClient({ ...p.neynar, ...common }),
    p.hub && new FarcasterHubClient({ ...p.hub, ...common }),
  );
}
