import { ArgsType, Field, Int } from 'type-graphql';
import { MAX_OFFSET } from '../../src/arguments/farcaster-limits.js';
import { DEFAULT_PAGE_LIMIT, DEFAULT_PAGE_OFFSET, MAX_PAGE_LIMIT } from '../../src/arguments/pagination.js';

/** The arguments of one of a user's lists (casts, followers): whose list, and how many of its items. */
@ArgsType()
export class UserListArgs {
  @Field(() => Int, { defaultValue: DEFAULT_PAGE_LIMIT, description: `1 to ${MAX_PAGE_LIMIT}` }) limit!: number;
  @Field(() => Int) fid!: number;
}

/** Where a page of a user's list starts. */
@ArgsType()
export class UserListOffsetArgs {
  @Field(() => Int, { defaultValue: DEFAULT_PAGE_OFFSET, description: `0 to ${MAX_OFFSET}` }) offset!: number;
}
