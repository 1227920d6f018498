import { Arg, ObjectType, Resolver, Root, Subscription } from 'type-graphql';
import { LiveEventFields, liveEvents } from '../shared/live-field.js';

@ObjectType({
  description: 'An ENS event of a watched name: ens.transfer, ens.record_changed, ens.expiring, ens.expired',
})
export class EnsEvent extends LiveEventFields {}

@Resolver()
export class EnsLiveResolver {
  @Subscription(() => EnsEvent, {
    description:
      'ENS ownership and record changes of the given names as they are mined (ens.transfer and ens.record_changed unless `events` says otherwise); the filters of an ens.* webhook',
    subscribe: liveEvents('ens', (a) => ({ names: a.names, addresses: a.addresses, events: a.events as string[] })),
  })
  ensEvents(
    @Root() event: EnsEvent,
    @Arg('names', () => [String], { description: 'ENS names or *.parent patterns, 1 to 100' }) _names: string[],
    @Arg('addresses', () => [String], { nullable: true, description: 'only events involving these addresses' })
    _addresses?: string[] | null,
    @Arg('events', () => [String], { nullable: true, description: 'ens.* event types' }) _events?: string[] | null,
  ): EnsEvent {
    return event;
  }
}
