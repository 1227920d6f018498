import 'reflect-metadata';
import { z } from 'zod';
import {
  farcasterIdentifier,
  farcasterListLimit,
  farcasterListOffset,
  farcasterSearchLimit,
  fid,
  IDENTIFIER_RULE,
  searchType,
  userSearchQuery,
} from '../../src/arguments/farcaster-arguments.js';
import { MAX_SEARCH_LIMIT } from '../../src/arguments/farcaster-limits.js';
import { optionalFeedCursor } from '../../src/arguments/feed-cursor.js';
import { FarcasterUserResolver } from '../../subgraphs/farcaster/resolvers.js';
import { rootField } from '../root-field.js';
import type { RouteRow } from '../route-row.js';

/**
 * docs/api-contract.md#data-freshness: social-protocol data 1 to 5 minutes; a shared cache may keep lists a minute,
 * profiles five.
 */
const LIST_MAX_AGE_SECONDS = 60;
const PROFILE_MAX_AGE_SECONDS = 300;
/** docs/api-contract.md#prices: social profile $0.01. */
const SOCIAL_PROFILE_PRICE = '0.01';

const USER_FIELDS = 'fid username displayName bio pfp followers following verifications activeStatus registeredAt';
const CAST_FIELDS = 'hash text timestamp likes recasts replies embeds { url castId { fid hash } }';

/** The answer of the offset-paginated rows, as their summaries state it. */
const OFFSET_PAGE = 'offset pagination: `{ data, pagination: { limit, offset, total, hasMore } }`';

/** The operation of an offset-paginated row: a page of `field`'s items (each `selection`) of the user `$fid`. */
const offsetPageOperation = (name: string, field: string, selection: string) =>
  `query ${name}($fid: Int!, $limit: Int!, $offset: Int!) {
      ${field}(fid: $fid, limit: $limit, offset: $offset) { data { ${selection} } pagination { limit offset total hasMore } }
    }`;

/** The operation of an older list row: the newest `$limit` of the user `$fid`'s items, as `{ <list>: [selection] }`. */
const newestOperation = (name: string, field: string, list: string, selection: string) =>
  `query ${name}($fid: Int!, $limit: Int!) { ${field}(fid: $fid, limit: $limit) { ${list} { ${selection} } } }`;

/** The 404 of every row that takes a FID. */
const UNKNOWN_FID = 'no Farcaster user with this FID';

const fidPath = z.object({ fid });
const limitQuery = z.object({ limit: farcasterListLimit });
const pageQuery = z.object({ limit: farcasterListLimit, offset: farcasterListOffset });

/** docs/api-contract.md#identity: the Farcaster rows and the offset-paginated aliases of the pagination list. */
export const farcasterRoutes: RouteRow[] = [
  // Static segments (search, feed, user) win over {identifier} in fastify whatever the order; listed first for readers.
  {
    kind: 'operation',
    id: 'searchFarcasterUsers',
    tool: 'search_farcaster_users',
    method: 'GET',
    path: '/api/farcaster/search',
    tag: 'Farcaster',
    summary: 'Search Farcaster users by username or display name',
    description: `\`{ type: "users", results: [user] }\`, at most ${MAX_SEARCH_LIMIT} users (Neynar's page). Needs Neynar: 503 when it is down or not configured.`,
    tier: 'heavy',
    params: {
      query: z.object({
        q: userSearchQuery,
        type: searchType,
        limit: farcasterSearchLimit,
      }),
    },
    field: rootField(FarcasterUserResolver.prototype.farcasterSearch),
    operation: `query searchFarcasterUsers($q: String!, $type: String!, $limit: Int!) {
      farcasterSearch(q: $q, type: $type, limit: $limit) { type results { ${USER_FIELDS} } }
    }`,
    maxAge: LIST_MAX_AGE_SECONDS,
  },
  {
    kind: 'operation',
    id: 'getFarcasterFeed',
    tool: 'get_farcaster_feed',
    method: 'GET',
    path: '/api/farcaster/feed',
    tag: 'Farcaster',
    summary: 'The global trending feed, cursor pagination: `{ data: [cast with author], cursor }`',
    description:
      "Pass the answer's `cursor` to get the next page; it is null on the last one. Each cast carries its `author` (fid, username, displayName, pfp). Needs Neynar: 503 when it is down or not configured.",
    tier: 'medium',
    params: {
      query: z.object({ limit: farcasterListLimit, cursor: optionalFeedCursor }),
    },
    field: rootField(FarcasterUserResolver.prototype.farcasterFeed),
    operation: `query getFarcasterFeed($limit: Int!, $cursor: String) {
      farcasterFeed(limit: $limit, cursor: $cursor) { data { ${CAST_FIELDS} author { fid username displayName pfp } } cursor }
    }`,
    maxAge: LIST_MAX_AGE_SECONDS,
  },
  {
    kind: 'operation',
    id: 'getFarcasterUserByFid',
    tool: 'get_farcaster_user_by_fid',
    method: 'GET',
    path: '/api/farcaster/user/{fid}',
    tag: 'Farcaster',
    summary: 'Farcaster user by FID',
    tier: 'medium',
    price: SOCIAL_PROFILE_PRICE,
    params: { path: fidPath },
    field: rootField(FarcasterUserResolver.prototype.farcasterUserByFid),
    operation: `query getFarcasterUserByFid($fid: Int!) { farcasterUserByFid(fid: $fid) { ${USER_FIELDS} } }`,
    notFound: UNKNOWN_FID,
    maxAge: PROFILE_MAX_AGE_SECONDS,
  },
  {
    kind: 'operation',
    id: 'listFarcasterUserCasts',
    tool: 'list_farcaster_user_casts',
    method: 'GET',
    path: '/api/farcaster/user/{fid}/casts',
    tag: 'Farcaster',
    summary: `A user's casts, newest first, ${OFFSET_PAGE}`,
    description: '`total` is null: no upstream counts casts.',
    tier: 'medium',
    params: { path: fidPath, query: pageQuery },
    field: rootField(FarcasterUserResolver.prototype.farcasterUserCasts),
    operation: offsetPageOperation('listFarcasterUserCasts', 'farcasterUserCasts', CAST_FIELDS),
    notFound: UNKNOWN_FID,
    maxAge: LIST_MAX_AGE_SECONDS,
  },
  {
    kind: 'operation',
    id: 'listFarcasterUserFollowers',
    tool: 'list_farcaster_user_followers',
    method: 'GET',
    path: '/api/farcaster/user/{fid}/followers',
    tag: 'Farcaster',
    summary: `A user's followers, most recent first, ${OFFSET_PAGE}`,
    description: "`total` is the user's follower count (null when the hub fallback serves, which keeps no counts).",
    tier: 'medium',
    params: { path: fidPath, query: pageQuery },
    field: rootField(FarcasterUserResolver.prototype.farcasterUserFollowers),
    operation: offsetPageOperation('listFarcasterUserFollowers', 'farcasterUserFollowers', USER_FIELDS),
    notFound: UNKNOWN_FID,
    maxAge: LIST_MAX_AGE_SECONDS,
  },
  {
    kind: 'operation',
    id: 'getFarcasterUser',
    tool: 'get_farcaster_user',
    method: 'GET',
    path: '/api/farcaster/{identifier}',
    tag: 'Farcaster',
    summary: 'Farcaster user by username, FID or verified address',
    description: IDENTIFIER_RULE,
    tier: 'medium',
    price: SOCIAL_PROFILE_PRICE,
    params: { path: z.object({ identifier: farcasterIdentifier }) },
    field: rootField(FarcasterUserResolver.prototype.farcasterUser),
    operation: `query getFarcasterUser($identifier: String!) { farcasterUser(identifier: $identifier) { ${USER_FIELDS} } }`,
    notFound: 'no Farcaster user with this username, FID or verified address',
    maxAge: PROFILE_MAX_AGE_SECONDS,
  },
  {
    kind: 'operation',
    id: 'listFarcasterCasts',
    tool: 'list_farcaster_casts',
    method: 'GET',
    path: '/api/farcaster/{fid}/casts',
    tag: 'Farcaster',
    summary: "A user's newest casts: `{ casts }`",
    tier: 'medium',
    params: { path: fidPath, query: limitQuery },
    field: rootField(FarcasterUserResolver.prototype.farcasterCasts),
    operation: newestOperation('listFarcasterCasts', 'farcasterCasts', 'casts', CAST_FIELDS),
    notFound: UNKNOWN_FID,
    maxAge: LIST_MAX_AGE_SECONDS,
  },
  {
    kind: 'operation',
    id: 'listFarcasterFollowers',
    tool: 'list_farcaster_followers',
    method: 'GET',
    path: '/api/farcaster/{fid}/followers',
    tag: 'Farcaster',
    summary: "A user's most recent followers: `{ users }`",
    tier: 'medium',
    params: { path: fidPath, query: limitQuery },
    field: rootField(FarcasterUserResolver.prototype.farcasterFollowers),
    operation: newestOperation('listFarcasterFollowers', 'farcasterFollowers', 'users', USER_FIELDS),
    notFound: UNKNOWN_FID,
    maxAge: LIST_MAX_AGE_SECONDS,
  },
];
