import { isJsonObject, UnexpectedReplyError } from '../json-reply.js';
import {
  countOrNull,
  ethereumAddresses,
  type FarcasterCastRecord,
  type FarcasterEmbedRecord,
  type FarcasterPage,
  type FarcasterProfile,
  requireFid,
  stringOr,
} from './farcaster-records.js';

/** Neynar's user score at or above which a user counts as active (the score its own notification filter example uses). */
export const ACTIVE_USER_SCORE = 0.5;

/**
 * `active` or `inactive` from Neynar's user score (`score`, or `experimental.neynar_user_score` in older replies), which
 * replaced the `active_status` field Neynar's User schema no longer has; null when the reply carries no score.
 * @example activeStatusOf({ score: 0.91 }) // 'active'
 */
export function activeStatusOf(user: Record<string, unknown>): 'active' | 'inactive' | null {
  const experimental = isJsonObject(user.experimental) ? user.experimental : {};
  const score = typeof user.score === 'number' ? user.score : experimental.neynar_user_score;
  if (typeof score !== 'number' || !Number.isFinite(score)) return null;
  return score >= ACTIVE_USER_SCORE ? 'active' : 'inactive';
}

/**
 * A Neynar v2 `User` → our profile. Verified addresses come from `verified_addresses.eth_addresses`
 * (older replies: `verifications`), checksummed. `registered_at` (ISO 8601, in Neynar's current User schema; absent
 * from older replies) gives registeredAt; without it the resolver asks the hub.
 * @example mapNeynarUser({ object: 'user', fid: 3, username: 'dwr', follower_count: 1, following_count: 2 }).username // 'dwr'
 */
export function mapNeynarUser(json: unknown): FarcasterProfile {
  if (!isJsonObject(json)) throw new UnexpectedReplyError('neynar user: expected an object');
  const fid = requireFid(json.fid, 'neynar user');
  const profile = isJsonObject(json.profile) ? json.profile : {};
  const bio = isJsonObject(profile.bio) ? profile.bio : {};
  const verified = isJsonObject(json.verified_addresses) ? json.verified_addresses : {};
  const eth = Array.isArray(verified.eth_addresses)
    ? verified.eth_addresses
    : Array.isArray(json.verifications)
      ? json.verifications
      : [];
  const registeredAt =
    typeof json.registered_at === 'string' && !Number.isNaN(Date.parse(json.registered_at))
      ? new Date(json.registered_at).toISOString()
      : null;
  return {
    fid,
    username: stringOr(json.username, ''),
    displayName: stringOr(json.display_name, ''),
    bio: stringOr(bio.text, ''),
    pfp: stringOr(json.pfp_url, ''),
    followers: countOrNull(json.follower_count),
    following: countOrNull(json.following_count),
    verifications: ethereumAddresses(eth),
    activeStatus: activeStatusOf(json),
    registeredAt,
  };
}

function mapNeynarEmbed(json: unknown): FarcasterEmbedRecord | null {
  if (!isJsonObject(json)) return null;
  if (typeof json.url === 'string') return { url: json.url, castId: null };
  const castId = isJsonObject(json.cast_id) ? json.cast_id : undefined;
  if (castId && typeof castId.hash === 'string' && typeof castId.fid === 'number') {
    return { url: null, castId: { fid: castId.fid, hash: castId.hash } };
  }
  // Newer replies embed the quoted cast itself.
  const cast = isJsonObject(json.cast) ? json.cast : undefined;
  const author = cast && isJsonObject(cast.author) ? cast.author : undefined;
  if (cast && typeof cast.hash === 'string' && author && typeof author.fid === 'number') {
    return { url: null, castId: { fid: author.fid, hash: cast.hash } };
  }
  return null;
}

/**
 * A Neynar v2 `Cast` (with interactions) → our cast: likes and recasts from `reactions.*_count`, replies from `replies.count`.
 * @example mapNeynarCast(cast).likes // 120
 */
export function mapNeynarCast(json: unknown): FarcasterCastRecord {
  if (!isJsonObject(json)) throw new UnexpectedReplyError('neynar cast: expected an object');
  if (typeof json.hash !== 'string' || typeof json.timestamp !== 'string' || Number.isNaN(Date.parse(json.timestamp))) {
    throw new UnexpectedReplyError('neynar cast: hash or timestamp missing');
  }
  const author = mapNeynarUser(json.author);
  const reactions = isJsonObject(json.reactions) ? json.reactions : {};
  const replies = isJsonObject(json.replies) ? json.replies : {};
  const embeds = Array.isArray(json.embeds) ? json.embeds : [];
  return {
    hash: json.hash,
    text: stringOr(json.text, ''),
    timestamp: new Date(json.timestamp).toISOString(),
    likes: countOrNull(reactions.likes_count),
    recasts: countOrNull(reactions.recasts_count),
    replies: countOrNull(replies.count),
    embeds: embeds.map(mapNeynarEmbed).filter((e): e is FarcasterEmbedRecord => e !== null),
    authorFid: author.fid,
    author,
  };
}

function nextCursor(json: Record<string, unknown>): string | null {
  const next = isJsonObject(json.next) ? json.next : {};
  return typeof next.cursor === 'string' && next.cursor !== '' ? next.cursor : null;
}

function listOf(json: unknown, key: string, where: string): { list: unknown[]; root: Record<string, unknown> } {
  if (!isJsonObject(json) || !Array.isArray(json[key]))
    throw new UnexpectedReplyError(`${where}: expected { ${key}: [...] }`);
  return { list: json[key] as unknown[], root: json };
}

/** `user/by_username` → `{ user }`. */
export function mapNeynarUserResponse(json: unknown): FarcasterProfile {
  if (!isJsonObject(json)) throw new UnexpectedReplyError('user/by_username: expected { user }');
  return mapNeynarUser(json.user);
}

/** `user/bulk` → `{ users: [User] }`, by FID. */
export function mapNeynarBulkUsers(json: unknown): Map<number, FarcasterProfile> {
  const { list } = listOf(json, 'users', 'user/bulk');
  return new Map(list.map(mapNeynarUser).map((u) => [u.fid, u]));
}

/** `user/bulk-by-address` → `{ "0xlower…": [User] }`, by lower-case address. */
export function mapNeynarUsersByAddress(json: unknown): Map<string, FarcasterProfile[]> {
  if (!isJsonObject(json)) throw new UnexpectedReplyError('user/bulk-by-address: expected an object keyed by address');
  const byAddress = new Map<string, FarcasterProfile[]>();
  for (const [address, users] of Object.entries(json)) {
    if (!Array.isArray(users))
      throw new UnexpectedReplyError('user/bulk-by-address: expected a list of users per address');
    byAddress.set(address.toLowerCase(), users.map(mapNeynarUser));
  }
  return byAddress;
}

/** `feed/user/casts` and `feed` → `{ casts: [Cast], next: { cursor } }`. */
export function mapNeynarCastPage(json: unknown): FarcasterPage<FarcasterCastRecord> {
  const { list, root } = listOf(json, 'casts', 'feed');
  return { items: list.map(mapNeynarCast), cursor: nextCursor(root) };
}

/** `followers` → `{ users: [{ object: 'follow', user }], next: { cursor } }`. */
export function mapNeynarFollowersPage(json: unknown): FarcasterPage<FarcasterProfile> {
  const { list, root } = listOf(json, 'users', 'followers');
  const items = list.map((follow) => mapNeynarUser(isJsonObject(follow) && 'user' in follow ? follow.user : follow));
  return { items, cursor: nextCursor(root) };
}

/** `user/search` → `{ result: { users: [User], next: { cursor } } }`. */
export function mapNeynarUserSearch(json: unknown): FarcasterPage<FarcasterProfile> {
  if (!isJsonObject(json)) throw new UnexpectedReplyError('user/search: expected { result: { users } }');
  const { list, root } = listOf(json.result, 'users', 'user/search');
  return { items: list.map(mapNeynarUser), cursor: nextCursor(root) };
}
