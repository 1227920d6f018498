import { Field, Float, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'Offset pagination: the page asked for, the total and whether more follow' })
export class DefiPagination {
  @Field(() => Int) limit!: number;
  @Field(() => Int) offset!: number;
  @Field(() => Int, { description: 'items in the whole list' }) total!: number;
  @Field(() => Boolean, { description: 'whether items follow this page' }) hasMore!: boolean;
}

@ObjectType({ description: 'A DeFi protocol with its current TVL (DefiLlama)' })
export class DefiProtocol {
  @Field(() => String) name!: string;
  @Field(() => String, { description: "DefiLlama's slug: GET /api/defi/protocol/{slug}" }) slug!: string;
  @Field(() => String, { nullable: true, description: 'Dexs, Lending, Liquid Staking …' }) category!: string | null;
  @Field(() => [String]) chains!: string[];
  @Field(() => Float, { nullable: true, description: 'USD locked now' }) tvl!: number | null;
  @Field(() => Float, { nullable: true, description: 'percent change of TVL over 1 hour' }) change1h!: number | null;
  @Field(() => Float, { nullable: true, description: 'percent over 1 day' }) change1d!: number | null;
  @Field(() => Float, { nullable: true, description: 'percent over 7 days' }) change7d!: number | null;
  @Field(() => Float, { nullable: true, description: "USD market cap of the protocol's token" }) mcap!: number | null;
  @Field(() => String, { nullable: true, description: "the protocol's token symbol" }) symbol!: string | null;
  @Field(() => String, { nullable: true }) url!: string | null;
  @Field(() => String, { nullable: true }) logo!: string | null;
}

@ObjectType({ description: 'GET /api/defi/protocols: protocols by TVL, largest first' })
export class DefiProtocolPage {
  @Field(() => [DefiProtocol]) data!: DefiProtocol[];
  @Field(() => DefiPagination) pagination!: DefiPagination;
}

@ObjectType({ description: 'USD locked on one chain, or on one day' })
export class TvlPoint {
  @Field(() => String, { nullable: true, description: 'chain name (per-chain list)' }) chain!: string | null;
  @Field(() => String, { nullable: true, description: 'UTC day, ISO 8601 (history)' }) date!: string | null;
  @Field(() => Float, { description: 'USD' }) tvl!: number;
}

@ObjectType({ description: 'GET /api/defi/protocol/{name}: TVL now, per chain, its changes and 30 days of history' })
export class DefiProtocolStats {
  @Field(() => String) name!: string;
  @Field(() => String) slug!: string;
  @Field(() => String, { nullable: true }) category!: string | null;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => String, { nullable: true }) url!: string | null;
  @Field(() => String, { nullable: true }) twitter!: string | null;
  @Field(() => String, { nullable: true }) symbol!: string | null;
  @Field(() => [String]) chains!: string[];
  @Field(() => Float, { nullable: true, description: 'USD locked now' }) tvl!: number | null;
  @Field(() => Float, { nullable: true }) change1h!: number | null;
  @Field(() => Float, { nullable: true }) change1d!: number | null;
  @Field(() => Float, { nullable: true }) change7d!: number | null;
  @Field(() => Float, { nullable: true }) mcap!: number | null;
  @Field(() => [TvlPoint], {
    description: 'USD locked per chain now, largest first (borrowed and staking sub-totals left out)',
  })
  chainTvls!: TvlPoint[];
  @Field(() => [TvlPoint], { description: 'daily USD locked over the last 30 days, oldest first' })
  tvlHistory!: TvlPoint[];
}

@ObjectType({ description: 'A yield pool (DefiLlama yields)' })
export class YieldPoolItem {
  @Field(() => String, { description: "DefiLlama's pool id" }) pool!: string;
  @Field(() => String) chain!: string;
  @Field(() => String, { description: 'protocol slug' }) project!: string;
  @Field(() => String) symbol!: string;
  @Field(() => Float, { description: 'USD' }) tvlUsd!: number;
  @Field(() => Float, { nullable: true, description: 'percent a year, base + reward' }) apy!: number | null;
  @Field(() => Float, { nullable: true, description: 'percent a year from fees or interest' }) apyBase!: number | null;
  @Field(() => Float, { nullable: true, description: 'percent a year from reward tokens' }) apyReward!: number | null;
  @Field(() => Boolean) stablecoin!: boolean;
  @Field(() => String, { nullable: true, description: 'impermanent-loss risk: yes or no' }) ilRisk!: string | null;
  @Field(() => String, { nullable: true, description: 'single or multi' }) exposure!: string | null;
  @Field(() => String, { nullable: true, description: 'lockups and other conditions' }) poolMeta!: string | null;
  @Field(() => [String]) rewardTokens!: string[];
  @Field(() => [String]) underlyingTokens!: string[];
}

@ObjectType({ description: 'GET /api/yields: pools by TVL, largest first' })
export class YieldPoolPage {
  @Field(() => [YieldPoolItem]) data!: YieldPoolItem[];
  @Field(() => DefiPagination) pagination!: DefiPagination;
}

@ObjectType({ description: 'A token inside a DeFi position' })
export class PositionTokenAmount {
  @Field(() => String) symbol!: string;
  @Field(() => String, { description: "token contract, or the chain's native token id" }) address!: string;
  @Field(() => Float, { description: 'whole tokens (decimals applied)' }) amount!: number;
  @Field(() => Float, { nullable: true, description: 'USD' }) price!: number | null;
  @Field(() => Float, { nullable: true, description: 'USD: amount × price' }) valueUsd!: number | null;
}

@ObjectType({ description: 'One position of a wallet in one protocol' })
export class DefiPositionItem {
  @Field(() => String, { description: "DeBank's protocol id" }) protocolId!: string;
  @Field(() => String) protocol!: string;
  @Field(() => String, {
    description: 'ethereum, base, arbitrum, optimism, polygon, or the upstream id of another chain',
  })
  chain!: string;
  @Field(() => String, { description: 'Lending, Liquidity Pool, Staked, Locked …' }) kind!: string;
  @Field(() => Float, { description: 'USD supplied' }) assetUsd!: number;
  @Field(() => Float, { description: 'USD borrowed' }) debtUsd!: number;
  @Field(() => Float, { description: 'USD: assets − debt' }) netUsd!: number;
  @Field(() => [PositionTokenAmount]) supplied!: PositionTokenAmount[];
  @Field(() => [PositionTokenAmount]) borrowed!: PositionTokenAmount[];
  @Field(() => [PositionTokenAmount]) rewards!: PositionTokenAmount[];
  @Field(() => Float, { nullable: true, description: 'lending health factor; below 1 is liquidatable' }) healthRate!:
    | number
    | null;
  @Field(() => String, { nullable: true, description: 'when the upstream computed it, ISO 8601' }) updatedAt!:
    | string
    | null;
}

@ObjectType({ description: "GET /api/defi/positions/{address}: a wallet's DeFi positions on every chain" })
export class DefiPositions {
  @Field(() => String, { description: 'checksummed address' }) address!: string;
  @Field(() => Float, { description: 'USD: sum of the net values' }) totalNetUsd!: number;
  @Field(() => Float) totalAssetUsd!: number;
  @Field(() => Float) totalDebtUsd!: number;
  @Field(() => [DefiPositionItem], { description: 'largest net value first' }) positions!: DefiPositionItem[];
}

@ObjectType({ description: 'Active addresses of one chain' })
export class ChainActiveUsers {
  @Field(() => String) chain!: string;
  @Field(() => Int) chainId!: number;
  @Field(() => Int, { description: 'distinct addresses that sent a transaction on the latest measured day' })
  activeUsers24h!: number;
  @Field(() => Int, { nullable: true, description: 'distinct addresses over the 7 days ending that day' })
  activeUsers7d!: number | null;
  @Field(() => String, { description: 'the UTC day measured, YYYY-MM-DD' }) date!: string;
}

@ObjectType({ description: 'GET /api/active-users' })
export class ActiveUsers {
  @Field(() => [ChainActiveUsers], {
    description: 'the supported chains the source measures; a chain it does not cover is left out',
  })
  chains!: ChainActiveUsers[];
  @Field(() => String, { description: 'where the counts come from' }) source!: string;
}

@ObjectType({ description: 'A protocol event: an exploit (hack) or a funding round (raise), from DefiLlama' })
export class DefiEvent {
  @Field(() => String, { description: 'hack or raise' }) type!: string;
  @Field(() => String, { description: 'UTC, ISO 8601' }) date!: string;
  @Field(() => String, { description: 'protocol or company' }) name!: string;
  @Field(() => Float, { nullable: true, description: 'USD lost (hack) or raised (raise)' }) amountUsd!: number | null;
  @Field(() => [String]) chains!: string[];
  @Field(() => String, { nullable: true, description: 'report or announcement URL' }) source!: string | null;
  @Field(() => String, { nullable: true, description: 'hack: Protocol Logic, Infrastructure …' }) classification!:
    | string
    | null;
  @Field(() => String, { nullable: true, description: 'hack: how it was done' }) technique!: string | null;
  @Field(() => Float, { nullable: true, description: 'hack: USD returned' }) returnedUsd!: number | null;
  @Field(() => Boolean, { nullable: true, description: 'hack: whether a bridge was hit' }) bridgeHack!: boolean | null;
  @Field(() => String, { nullable: true, description: 'raise: Seed, Series A, Strategic …' }) round!: string | null;
  @Field(() => String, { nullable: true, description: 'raise' }) sector!: string | null;
  @Field(() => [String], { nullable: true, description: 'raise' }) leadInvestors!: string[] | null;
  @Field(() => [String], { nullable: true, description: 'raise' }) otherInvestors!: string[] | null;
  @Field(() => Float, { nullable: true, description: 'raise: USD valuation' }) valuationUsd!: number | null;
}

@ObjectType({ description: 'GET /api/events: recent protocol events, newest first' })
export class DefiEventList {
  @Field(() => [DefiEvent]) results!: DefiEvent[];
  @Field(() => Int, { description: 'events matching the filters (results is one page of them)' }) total!: number;
}

@ObjectType({ description: 'The next scheduled unlock of a token' })
export class TokenUnlockEvent {
  @Field(() => String, { description: 'always unlock' }) type!: string;
  @Field(() => String, { description: 'UTC, ISO 8601' }) date!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true, description: 'CoinGecko coin id' }) geckoId!: string | null;
  @Field(() => Float, { description: 'tokens unlocked' }) tokens!: number;
  @Field(() => Float, { nullable: true, description: 'percent of the circulating supply' }) percentOfCirculating!:
    | number
    | null;
  @Field(() => Float, {
    nullable: true,
    description: 'USD at the current price (market cap ÷ circulating supply), to the cent',
  })
  estimatedValueUsd!: number | null;
}

@ObjectType({ description: 'Upcoming events: the next token unlocks in the window' })
export class UpcomingEventsData {
  @Field(() => String, { description: 'window start (now), ISO 8601' }) from!: string;
  @Field(() => String, { nullable: true, description: 'window end, ISO 8601; null without `days`' }) to!: string | null;
  @Field(() => Int, { description: 'unlocks in the window (unlocks is the first `limit` of them)' }) count!: number;
  @Field(() => [TokenUnlockEvent], { description: 'soonest first' }) unlocks!: TokenUnlockEvent[];
}

@ObjectType({ description: 'GET /api/events/upcoming' })
export class UpcomingEvents {
  @Field(() => Boolean) success!: boolean;
  @Field(() => UpcomingEventsData) data!: UpcomingEventsData;
}
