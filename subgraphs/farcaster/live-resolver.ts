import { Arg, Int, ObjectType, Resolver, Root, Subscription } from 'type-graphql';
import { LiveEventFields, liveEvents } from '../shared/live-field.js';

@ObjectType({ description: 'A Farcaster event of a watched user: farcaster.cast or farcaster.follow' })
export class FarcasterEvent extends LiveEventFields {}

@Resolver()
export class FarcasterLiveResolver {
  @Subscription(() => FarcasterEvent, {
    description:
      'New casts of the given Farcaster users (and new followers with events: [farcaster.follow]), polled from the Farcaster source; the filters of a farcaster.* webhook',
    subscribe: liveEvents('farcaster', (a) => ({ fids: a.fids, events: a.events as string[] })),
  })
  farcasterCasts(
    @Root() event: FarcasterEvent,
    @Arg('fids', () => [Int], { description: 'watched FIDs, 1 to 100' }) _fids: number[],
    @Arg('events', () => [String], { nullable: true, description: 'farcaster.cast, farcaster.follow' })
    _events?: string[] | null,
  ): FarcasterEvent {
    return event;
  }
}
