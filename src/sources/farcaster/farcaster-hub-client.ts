import type { HttpJsonSource } from '../http-json-source.js';
import { httpUpstream } from '../http-upstream.js';
import type { SourceClient } from '../source-client.js';
import {
  apiKeyHeader,
  type FarcasterClientParams,
  FID_REGISTRATION_FRESHNESS_MS,
  SOCIAL_LIST_FRESHNESS_MS,
  SOCIAL_PROFILE_FRESHNESS_MS,
} from './farcaster-client-params.js';
import type { FarcasterCastRecord, FarcasterPage, FarcasterProfile } from './farcaster-records.js';
import {
  isHubNotFound,
  mapHubCasts,
  mapHubFollowerFids,
  mapHubIdRegistration,
  mapHubUserData,
  mapHubUsernameProof,
  mapHubVerifications,
} from './hub-replies.js';

/** Hubs and Snapchain serve at most 100 messages per page here. */
export const HUB_MAX_PAGE_SIZE = 100;

const pageTokenQuery = (cursor: string | undefined) => (cursor === undefined ? {} : { pageToken: cursor });

/**
 * A Farcaster hub / Snapchain HTTP API (/v1/…): the protocol's own data, the fallback when Neynar is down or
 * not configured. It stores messages, not counts: profiles come without follower counts, casts without reactions.
 * @example
 * const hub = new FarcasterHubClient({ baseUrl: 'https://snapchain-api.neynar.com', apiKey, mode: 'live', registry, timeoutMs: 5000 })
 * await hub.userByFid(3) // userDataByFid + verificationsByFid
 */
export class FarcasterHubClient {
  readonly client: SourceClient;
  readonly http: HttpJsonSource;

  constructor(p: FarcasterClientParams) {
    const baseUrl = p.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
    ({ client: this.client, http: this.http } = httpUpstream({
      ...p,
      name: 'farcaster-hub',
      kind: 'social',
      description: 'Farcaster hub HTTP API',
      freshnessMs: SOCIAL_PROFILE_FRESHNESS_MS,
      baseUrl,
      headers: apiKeyHeader(p.apiKey),
    }));
  }

  /** The FID owning an fname; null when no proof exists (Hubble answers 404, Snapchain 400 with a NotFound detail). */
  fidByUsername(username: string): Promise<number | null> {
    return this.http.getMapped('/v1/userNameProofByName', mapHubUsernameProof, {
      query: { name: username },
      notFoundWhen: isHubNotFound,
    });
  }

  /**
   * When the FID was registered (ISO 8601), from its ID Registry Register event: one request, cached a week.
   * Not `/v1/onChainIdRegistryEventByFid`, which answers the most recent register OR transfer event.
   * Null when the hub holds no Register event for the FID.
   */
  async registeredAt(fid: number): Promise<string | null> {
    return this.http.getMapped('/v1/onChainEventsByFid', mapHubIdRegistration, {
      query: { fid, event_type: 'EVENT_TYPE_ID_REGISTER' },
      freshnessMs: FID_REGISTRATION_FRESHNESS_MS,
    });
  }

  /**
   * A user's profile from its user data and verifications (two requests); null when the hub holds no user data.
   * `registeredAt` is left null here: it costs a third request, made only when asked for ({@link registeredAt}).
   */
  async userByFid(fid: number): Promise<FarcasterProfile | null> {
    const [data, verifications] = await Promise.all([
      this.http.getMapped('/v1/userDataByFid', mapHubUserData, { query: { fid } }),
      this.http.getMapped('/v1/verificationsByFid', mapHubVerifications, { query: { fid } }),
    ]);
    if (!data) return null;
    return {
      fid,
      ...data,
      followers: null,
      following: null,
      verifications: verifications ?? [],
      activeStatus: null,
      registeredAt: null,
    };
  }

  /** A user's casts, newest first. */
  async casts(fid: number, limit: number, cursor?: string): Promise<FarcasterPage<FarcasterCastRecord>> {
    const page = await this.http.getMapped('/v1/castsByFid', mapHubCasts, {
      query: { fid, pageSize: Math.min(limit, HUB_MAX_PAGE_SIZE), reverse: true, ...pageTokenQuery(cursor) },
      freshnessMs: SOCIAL_LIST_FRESHNESS_MS,
    });
    return page ?? { items: [], cursor: null };
  }

  /** The FIDs following a user, most recent first. */
  async followerFids(fid: number, limit: number, cursor?: string): Promise<FarcasterPage<number>> {
    const page = await this.http.getMapped('/v1/linksByTargetFid', mapHubFollowerFids, {
      query: {
        target_fid: fid,
        link_type: 'follow',
        pageSize: Math.min(limit, HUB_MAX_PAGE_SIZE),
        reverse: true,
        ...pageTokenQuery(cursor),
      },
      freshnessMs: SOCIAL_LIST_FRESHNESS_MS,
    });
    return page ?? { items: [], cursor: null };
  }
}
