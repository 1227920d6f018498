import { Directive, Extensions, Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A cast embedded in another, by its id' })
export class FarcasterCastId {
  @Field(() => Int, { description: "FID of the embedded cast's author" }) fid!: number;
  @Field(() => String) hash!: string;
}

@ObjectType({ description: 'What a cast embeds: a URL, or another cast' })
export class FarcasterEmbed {
  @Field(() => String, { nullable: true }) url!: string | null;
  @Field(() => FarcasterCastId, { nullable: true }) castId!: FarcasterCastId | null;
}

@Directive('@key(fields: "fid")')
@ObjectType({ description: 'A Farcaster user, by FID' })
export class FarcasterUser {
  @Field(() => Int) fid!: number;
  @Field(() => String, { description: 'fname or ENS username; empty when none is set' }) username!: string;
  @Field(() => String, { description: 'empty when none is set' }) displayName!: string;
  @Field(() => String, { description: 'empty when none is set' }) bio!: string;
  @Field(() => String, { description: 'profile picture URL; empty when none is set' }) pfp!: string;
  @Field(() => Int, {
    nullable: true,
    description: 'follower count; null when served by the hub fallback, which keeps no counts',
  })
  followers!: number | null;
  @Field(() => Int, { nullable: true, description: 'following count; null when served by the hub fallback' })
  following!: number | null;
  @Field(() => [String], { description: 'verified Ethereum addresses, EIP-55 checksummed, oldest first' })
  verifications!: string[];
  @Field(() => String, {
    nullable: true,
    description:
      "active or inactive, from Neynar's user score (active from 0.5); null where no score is known (the hub)",
  })
  activeStatus!: string | null;
  @Field(() => String, { nullable: true, description: 'registration time, ISO 8601, where the upstream reports it' })
  registeredAt!: string | null;
}

@ObjectType({ description: 'A Farcaster cast' })
export class FarcasterCast {
  @Field(() => String) hash!: string;
  @Field(() => String) text!: string;
  @Field(() => String, { description: 'ISO 8601' }) timestamp!: string;
  @Field(() => Int, { nullable: true, description: 'null when served by the hub fallback, which counts no reactions' })
  likes!: number | null;
  @Field(() => Int, { nullable: true, description: 'null when served by the hub fallback' }) recasts!: number | null;
  @Field(() => Int, { nullable: true, description: 'null when served by the hub fallback' }) replies!: number | null;
  @Field(() => [FarcasterEmbed]) embeds!: FarcasterEmbed[];
  /** Resolved to `author` through the request's user loader. */
  authorFid!: number;
}

@Directive('@key(fields: "address")')
@ObjectType({ description: 'An Ethereum account; this subgraph adds the Farcaster user who verified it' })
export class Wallet {
  @Field(() => String, { description: 'EIP-55 checksummed address' }) address!: string;
}

@ObjectType({ description: 'GET /api/farcaster/{fid}/casts' })
export class FarcasterCastList {
  @Field(() => [FarcasterCast], { description: 'newest first' }) casts!: FarcasterCast[];
}

@ObjectType({ description: 'GET /api/farcaster/{fid}/followers' })
export class FarcasterFollowerList {
  @Field(() => [FarcasterUser], { description: 'most recent followers first' }) users!: FarcasterUser[];
}

@ObjectType({ description: 'GET /api/farcaster/search' })
export class FarcasterSearchResult {
  @Field(() => String, { description: 'what was searched: users' })
  @Extensions({ jsonSchema: { enum: ['users'] } })
  type!: string;
  @Field(() => [FarcasterUser]) results!: FarcasterUser[];
}

@ObjectType({ description: 'GET /api/farcaster/feed: one page of the global trending feed (cursor pagination)' })
export class FarcasterFeedPage {
  @Field(() => [FarcasterCast]) data!: FarcasterCast[];
  @Field(() => String, { nullable: true, description: 'pass as `cursor` for the next page; null on the last page' })
  cursor!: string | null;
}

@ObjectType({ description: 'Offset pagination: the page asked for, the total and whether more follow' })
export class FarcasterPagination {
  @Field(() => Int) limit!: number;
  @Field(() => Int) offset!: number;
  @Field(() => Int, {
    nullable: true,
    description:
      "the user's follower count for followers; null where the upstream keeps no count (casts, the hub fallback)",
  })
  total!: number | null;
  @Field(() => Boolean) hasMore!: boolean;
}

@ObjectType({ description: 'GET /api/farcaster/user/{fid}/casts' })
export class FarcasterCastPage {
  @Field(() => [FarcasterCast]) data!: FarcasterCast[];
  @Field(() => FarcasterPagination) pagination!: FarcasterPagination;
}

@ObjectType({ description: 'GET /api/farcaster/user/{fid}/followers' })
export class FarcasterUserPage {
  @Field(() => [FarcasterUser]) data!: FarcasterUser[];
  @Field(() => FarcasterPagination) pagination!: FarcasterPagination;
}
