import { ArgsType, Field, Int } from 'type-graphql';
import { argumentOptions } from '../../src/arguments/argument-options.js';
import { farcasterListLimit, farcasterListOffset } from '../../src/arguments/farcaster-arguments.js';

/** The arguments of one of a user's lists (casts, followers): whose list, and how many of its items. */
@ArgsType()
export class UserListArgs {
  @Field(() => Int, argumentOptions(farcasterListLimit)) limit!: number;
  @Field(() => Int) fid!: number;
}

/** Where a page of a user's list starts. */
@ArgsType()
export class UserListOffsetArgs {
  @Field(() => Int, argumentOptions(farcasterListOffset)) offset!: number;
}
