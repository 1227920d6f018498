import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, ObjectType, type SubscribeResolverData } from 'type-graphql';
import { type LiveWatch, liveWatch } from '../../src/arguments/live-arguments.js';
import type { WebhookFamily } from '../../src/arguments/webhook-body.js';
import type { GraphContext } from './graph-context.js';
import type { LiveEvent } from './live-services.js';

/**
 * A subscription field's `subscribe`: its arguments checked as a webhook's filters of `family` (live-arguments.ts),
 * `asWatch` naming them as the webhook body does, then the server's stream of the matching events.
 * @example @Subscription(() => WalletEvent, { subscribe: liveEvents('wallet', (a) => ({ addresses: a.addresses, events: a.events })) })
 */
export function liveEvents(
  family: WebhookFamily,
  asWatch: (args: Record<string, unknown>) => Parameters<typeof liveWatch>[1],
): (data: SubscribeResolverData<unknown, Record<string, unknown>, GraphContext>) => Promise<AsyncIterable<LiveEvent>> {
  return ({ args, context }) => {
    let watch: LiveWatch;
    try {
      watch = liveWatch(family, asWatch(args));
    } catch (err) {
      return Promise.reject(err);
    }
    return context.app.live.open(watch, context.live);
  };
}

/**
 * The fields every subscription's event has: the webhook delivery's body (docs/api-contract.md#events), so a frontend
 * and a webhook receiver read one shape. Each family's subgraph names its own type after it; this base type is
 * never referenced, so no schema prints it.
 */
@ObjectType()
export abstract class LiveEventFields implements LiveEvent {
  @Field(() => ID, { description: 'stable across detections: the same id as the webhook delivery of this event' })
  id!: string;
  @Field(() => String, { description: 'the event type, e.g. ens.record_changed (docs/api-contract.md#events)' })
  type!: string;
  @Field(() => String, { description: 'when it happened (block, cast or refresh time), ISO 8601' })
  timestamp!: string;
  @Field(() => GraphQLJSONObject, { description: "the event's data, as in the webhook delivery" })
  data!: Record<string, unknown>;
}
