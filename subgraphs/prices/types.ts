import { Field, Float, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'GET /api/price/{symbol}: a token price in USD' })
export class TokenPrice {
  @Field(() => String, { description: 'ticker, upper case' }) symbol!: string;
  @Field(() => Float, { description: 'USD' }) price!: number;
  @Field(() => Float, { description: 'percent change over 24 hours (0 when the upstream reports none)' })
  change24h!: number;
  @Field(() => Float, { nullable: true, description: 'USD traded over 24 hours' }) volume24h!: number | null;
  @Field(() => Float, { nullable: true, description: 'USD' }) marketCap!: number | null;
}

@ObjectType({ description: "One source's quote in a smart price, and whether the median used it" })
export class SourceQuote {
  @Field(() => String, { description: 'coingecko, defillama-coins or coinbase' }) source!: string;
  @Field(() => Float, { nullable: true, description: 'USD; null when the source gave no quote' }) price!: number | null;
  @Field(() => String, {
    nullable: true,
    description: "the quote's own time (ISO 8601); null when the upstream gives none",
  })
  quotedAt!: string | null;
  @Field(() => Int, { nullable: true, description: 'seconds since quotedAt' }) ageSeconds!: number | null;
  @Field(() => Boolean) included!: boolean;
  @Field(() => String, {
    nullable: true,
    description: 'why it was left out: unavailable (down, slow, bad reply), unlisted (no quote there), outlier',
  })
  reason!: string | null;
  @Field(() => Float, { nullable: true, description: 'percent from the median of all quotes' }) deviationPercent!:
    | number
    | null;
}

@ObjectType({ description: 'GET /api/price/smart/{symbol}: the median of independent sources, outliers left out' })
export class SmartPrice {
  @Field(() => String) symbol!: string;
  @Field(() => Float, { description: 'USD: median of the included quotes' }) price!: number;
  @Field(() => Int) sourcesUsed!: number;
  @Field(() => Int) sourcesAsked!: number;
  @Field(() => Float, { description: '(highest − lowest included quote) / price, percent' }) spreadPercent!: number;
  @Field(() => Float, { description: 'a quote further than this from the median of all quotes is an outlier, percent' })
  outlierThresholdPercent!: number;
  @Field(() => [SourceQuote]) sources!: SourceQuote[];
  @Field(() => String, { description: 'when this answer was computed, ISO 8601' }) timestamp!: string;
}

@ObjectType({ description: 'GET /api/price/history/{symbol}: USD prices over the last `days` days' })
export class PriceHistory {
  @Field(() => String) symbol!: string;
  @Field(() => Int) days!: number;
  @Field(() => String, { description: 'spacing of the points: 5m (1 day), hourly (2–90 days), daily (over 90 days)' })
  granularity!: string;
  @Field(() => [[Float]], { description: '[unix milliseconds, USD price] pairs, oldest first' }) prices!: number[][];
}

@ObjectType({ description: 'GET /api/market/trending: a coin of the trending-search list' })
export class TrendingToken {
  @Field(() => Int, { description: '1-based position in the list' }) rank!: number;
  @Field(() => String, { description: 'CoinGecko coin id' }) id!: string;
  @Field(() => String) symbol!: string;
  @Field(() => String) name!: string;
  @Field(() => Int, { nullable: true }) marketCapRank!: number | null;
  @Field(() => Float, { nullable: true, description: 'USD' }) price!: number | null;
  @Field(() => Float, { nullable: true, description: 'percent over 24 hours' }) change24h!: number | null;
  @Field(() => Float, { nullable: true, description: 'USD' }) marketCap!: number | null;
  @Field(() => Float, { nullable: true, description: 'USD' }) volume24h!: number | null;
  @Field(() => String, { nullable: true, description: 'small logo URL' }) thumb!: string | null;
}
