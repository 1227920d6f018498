import { Arg, Float, ObjectType, Resolver, Root, Subscription } from 'type-graphql';
import { LiveEventFields, liveEvents } from '../shared/live-field.js';

@ObjectType({ description: 'A price crossing a threshold, or a refresh of the price: price.alert' })
export class PriceAlertEvent extends LiveEventFields {}

@Resolver()
export class PricesLiveResolver {
  @Subscription(() => PriceAlertEvent, {
    description:
      "A token's price crossing a threshold (at or above `above`, or at or below `below`), on each refresh of the prices source; again only after it went back; the filter of a price.alert webhook. With `everyRefresh: true` instead, its price on every refresh (`direction: refresh`)",
    subscribe: liveEvents('price', (a) => ({
      prices: [
        { symbol: a.symbol, above: a.above, below: a.below, everyRefresh: a.everyRefresh === true ? true : undefined },
      ],
    })),
  })
  priceAlerts(
    @Root() event: PriceAlertEvent,
    @Arg('symbol', () => String, { description: 'ticker, e.g. ETH' }) _symbol: string,
    @Arg('above', () => Float, {
      nullable: true,
      description: 'USD; give exactly one of above, below and everyRefresh',
    })
    _above?: number | null,
    @Arg('below', () => Float, { nullable: true, description: 'USD' }) _below?: number | null,
    @Arg('everyRefresh', () => Boolean, {
      nullable: true,
      description: 'true: an event on every refresh of the price, whatever it is (instead of above or below)',
    })
    _everyRefresh?: boolean | null,
  ): PriceAlertEvent {
    return event;
  }
}
