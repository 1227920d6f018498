import { Arg, Args, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import { argumentOptions } from '../../src/arguments/argument-options.js';
import { checksummedAddress } from '../../src/arguments/evm-address.js';
import {
  farcasterIdentifier,
  farcasterListLimit,
  farcasterListOffset,
  farcasterSearchLimit,
  fid as fidArgument,
  parseFarcasterIdentifier,
  recentCastsLimit,
  searchType,
  userSearchQuery,
} from '../../src/arguments/farcaster-arguments.js';
import { decodeFeedCursor, encodeFeedCursor, optionalFeedCursor } from '../../src/arguments/feed-cursor.js';
import { parseArgument } from '../../src/arguments/parse-argument.js';
import { notFound } from '../../src/errors/api-error.js';
import type { FarcasterCastRecord, FarcasterProfile } from '../../src/sources/farcaster/farcaster-records.js';
import type { CollectedList } from '../../src/sources/farcaster/farcaster-sources.js';
import type { GraphContext } from '../shared/graph-context.js';
import { farcasterRegistrationLoader, farcasterUserByAddressLoader, farcasterUserLoader } from './loaders.js';
import {
  FarcasterCast,
  FarcasterCastList,
  FarcasterCastPage,
  FarcasterFeedPage,
  FarcasterFollowerList,
  FarcasterSearchResult,
  FarcasterUser,
  FarcasterUserPage,
  Wallet,
} from './types.js';
import { UserListArgs, UserListOffsetArgs } from './user-list-args.js';

const checkFid = (fid: number): number => parseArgument(fidArgument, 'fid', fid);
const checkListLimit = (limit: number): number => parseArgument(farcasterListLimit, 'limit', limit);

const toCast = (c: FarcasterCastRecord): FarcasterCast => ({
  hash: c.hash,
  text: c.text,
  timestamp: c.timestamp,
  likes: c.likes,
  recasts: c.recasts,
  replies: c.replies,
  embeds: c.embeds,
  authorFid: c.authorFid,
});

/** Casts that carried their author (Neynar) put it in the request's loader, so `author` costs no call. */
function castsWithAuthors(ctx: GraphContext, casts: readonly FarcasterCastRecord[]): FarcasterCast[] {
  const loader = farcasterUserLoader.of(ctx);
  for (const c of casts) if (c.author) loader.prime(c.authorFid, c.author);
  return casts.map(toCast);
}

/** Users of a list: those the reply carried are primed; the others are read in ONE bulk call. */
async function resolveUsers(
  ctx: GraphContext,
  entries: readonly { fid: number; profile: FarcasterProfile | null }[],
): Promise<FarcasterUser[]> {
  const loader = farcasterUserLoader.of(ctx);
  for (const e of entries) if (e.profile) loader.prime(e.fid, e.profile);
  const users = await loader.loadMany(entries.map((e) => e.fid));
  const failure = users.find((u): u is Error => u instanceof Error);
  if (failure) throw failure;
  return users.filter((u): u is FarcasterProfile => u !== null);
}

/**
 * One of a user's lists (casts, followers) from `offset`, `limit` long, read in parallel with the user: checks the
 * arguments, asks the upstream for the first `offset + limit` items, and gives null for an unknown FID.
 */
async function userList<T>(
  ctx: GraphContext,
  { fid, limit }: UserListArgs,
  offset: number,
  read: (count: number) => Promise<CollectedList<T>>,
): Promise<{ owner: FarcasterProfile; items: T[]; more: boolean } | null> {
  checkFid(fid);
  checkListLimit(limit);
  parseArgument(farcasterListOffset, 'offset', offset);
  const [owner, list] = await Promise.all([farcasterUserLoader.of(ctx).load(fid), read(offset + limit)]);
  return owner ? { owner, items: list.items.slice(offset), more: list.more } : null;
}

@Resolver(() => FarcasterUser)
export class FarcasterUserResolver {
  @Query(() => FarcasterUser, {
    nullable: true,
    description: 'A Farcaster user by username, FID or verified address (detected; `@name` is always a username)',
  })
  async farcasterUser(
    @Arg('identifier', () => String, { description: 'username, @username, FID or 0x address' }) identifier: string,
    @Ctx() ctx: GraphContext,
  ): Promise<FarcasterUser | null> {
    const parsed = parseFarcasterIdentifier(parseArgument(farcasterIdentifier, 'identifier', identifier));
    if (parsed.kind === 'fid') return farcasterUserLoader.of(ctx).load(parsed.fid);
    if (parsed.kind === 'address') return farcasterUserByAddressLoader.of(ctx).load(parsed.address.toLowerCase());
    const user = await ctx.sources.farcaster.userByUsername(parsed.username);
    if (user) farcasterUserLoader.of(ctx).prime(user.fid, user);
    return user;
  }

  @Query(() => FarcasterUser, { nullable: true, description: 'A Farcaster user by FID' })
  farcasterUserByFid(@Arg('fid', () => Int) fid: number, @Ctx() ctx: GraphContext): Promise<FarcasterUser | null> {
    return farcasterUserLoader.of(ctx).load(checkFid(fid));
  }

  @Query(() => FarcasterCastList, { nullable: true, description: "A user's newest casts; null for an unknown FID" })
  async farcasterCasts(@Args() user: UserListArgs, @Ctx() ctx: GraphContext): Promise<FarcasterCastList | null> {
    const list = await userList(ctx, user, 0, (count) => ctx.sources.farcaster.casts(user.fid, count));
    return list && { casts: castsWithAuthors(ctx, list.items) };
  }

  @Query(() => FarcasterFollowerList, {
    nullable: true,
    description: "A user's most recent followers; null for an unknown FID",
  })
  async farcasterFollowers(
    @Args() user: UserListArgs,
    @Ctx() ctx: GraphContext,
  ): Promise<FarcasterFollowerList | null> {
    const list = await userList(ctx, user, 0, (count) => ctx.sources.farcaster.followers(user.fid, count));
    return list && { users: await resolveUsers(ctx, list.items) };
  }

  @Query(() => FarcasterCastPage, {
    nullable: true,
    description: "A user's casts, offset pagination; null for an unknown FID",
  })
  async farcasterUserCasts(
    @Args() user: UserListArgs,
    @Args() { offset }: UserListOffsetArgs,
    @Ctx() ctx: GraphContext,
  ): Promise<FarcasterCastPage | null> {
    const list = await userList(ctx, user, offset, (count) => ctx.sources.farcaster.casts(user.fid, count));
    if (!list) return null;
    return {
      data: castsWithAuthors(ctx, list.items),
      pagination: { limit: user.limit, offset, total: null, hasMore: list.more },
    };
  }

  @Query(() => FarcasterUserPage, {
    nullable: true,
    description: "A user's followers, offset pagination; null for an unknown FID",
  })
  async farcasterUserFollowers(
    @Args() user: UserListArgs,
    @Args() { offset }: UserListOffsetArgs,
    @Ctx() ctx: GraphContext,
  ): Promise<FarcasterUserPage | null> {
    const list = await userList(ctx, user, offset, (count) => ctx.sources.farcaster.followers(user.fid, count));
    if (!list) return null;
    return {
      data: await resolveUsers(ctx, list.items),
      pagination: { limit: user.limit, offset, total: list.owner.followers, hasMore: list.more },
    };
  }

  @Query(() => FarcasterSearchResult, { description: 'Users whose username or display name matches `q` (Neynar)' })
  async farcasterSearch(
    @Arg('q', () => String) q: string,
    @Arg('type', () => String, argumentOptions(searchType))
    type: string,
    @Arg('limit', () => Int, argumentOptions(farcasterSearchLimit))
    limit: number,
    @Ctx() ctx: GraphContext,
  ): Promise<FarcasterSearchResult> {
    const query = parseArgument(userSearchQuery, 'q', q);
    parseArgument(searchType, 'type', type);
    parseArgument(farcasterSearchLimit, 'limit', limit);
    const users = await ctx.sources.farcaster.searchUsers(query, limit);
    return {
      type,
      results: await resolveUsers(
        ctx,
        users.slice(0, limit).map((u) => ({ fid: u.fid, profile: u })),
      ),
    };
  }

  @Query(() => FarcasterFeedPage, {
    description: "The global trending feed, one page; pass the answer's cursor for the next (Neynar)",
  })
  async farcasterFeed(
    @Arg('limit', () => Int, argumentOptions(farcasterListLimit)) limit: number,
    @Arg('cursor', () => String, { nullable: true, description: "the previous page's cursor" }) cursor:
      | string
      | null
      | undefined,
    @Ctx() ctx: GraphContext,
  ): Promise<FarcasterFeedPage> {
    checkListLimit(limit);
    const given = parseArgument(optionalFeedCursor, 'cursor', cursor);
    const upstreamCursor = given === undefined ? undefined : decodeFeedCursor(given);
    const page = await ctx.sources.farcaster.trendingFeed(limit, upstreamCursor);
    return {
      data: castsWithAuthors(ctx, page.items),
      cursor: page.cursor === null ? null : encodeFeedCursor(page.cursor),
    };
  }

  /** Neynar's `registered_at` when the reply carried it; else the hub's Register event, asked only when selected. */
  @FieldResolver()
  async registeredAt(@Root() user: FarcasterUser, @Ctx() ctx: GraphContext): Promise<string | null> {
    return user.registeredAt ?? farcasterRegistrationLoader.of(ctx).load(user.fid);
  }

  @FieldResolver(() => [FarcasterCast], { description: "The user's newest casts" })
  async recentCasts(
    @Root() user: FarcasterUser,
    @Arg('limit', () => Int, argumentOptions(recentCastsLimit)) limit: number,
    @Ctx() ctx: GraphContext,
  ): Promise<FarcasterCast[]> {
    parseArgument(recentCastsLimit, 'limit', limit);
    const list = await ctx.sources.farcaster.casts(user.fid, limit);
    return castsWithAuthors(ctx, list.items);
  }

  @FieldResolver(() => [Wallet], {
    description:
      "The wallets of the user's verified addresses, oldest first: other subgraphs add their primary ENS names and balances",
  })
  verifiedWallets(@Root() user: FarcasterUser): Wallet[] {
    return user.verifications.map((address) => ({ address }));
  }
}

@Resolver(() => FarcasterCast)
export class FarcasterCastResolver {
  @FieldResolver(() => FarcasterUser, { description: "The cast's author" })
  async author(@Root() cast: FarcasterCast, @Ctx() ctx: GraphContext): Promise<FarcasterUser> {
    const user = await farcasterUserLoader.of(ctx).load(cast.authorFid);
    if (!user) throw notFound(`no Farcaster user with FID ${cast.authorFid}`);
    return user;
  }
}

@Resolver(() => Wallet)
export class FarcasterWalletResolver {
  @FieldResolver(() => FarcasterUser, {
    nullable: true,
    description: 'The Farcaster user whose verified addresses include this one (Neynar)',
  })
  farcasterUser(@Root() wallet: Wallet, @Ctx() ctx: GraphContext): Promise<FarcasterUser | null> {
    return farcasterUserByAddressLoader.of(ctx).load(wallet.address.toLowerCase());
  }
}

/** Entities other subgraphs point at: `FarcasterUser` by FID, `Wallet` by address in any case. */
export const farcasterReferenceResolvers = {
  FarcasterUser: {
    __resolveReference(ref: { fid: number }, ctx: GraphContext): Promise<FarcasterProfile | null> {
      return farcasterUserLoader.of(ctx).load(checkFid(ref.fid));
    },
  },
  Wallet: {
    __resolveReference(ref: { address: string }): Wallet {
      return { address: parseArgument(checksummedAddress, 'address', ref.address) };
    },
  },
};
