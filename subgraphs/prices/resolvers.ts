import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import { argumentOptions } from '../../src/arguments/argument-options.js';
import { parseArgument } from '../../src/arguments/parse-argument.js';
import { historyDays, symbolBatch, trendingLimit } from '../../src/arguments/price-arguments.js';
import { findToken, MAX_BATCH_SYMBOLS, type TokenListing, tokenSymbol } from '../../src/arguments/token-symbol.js';
import { notFound } from '../../src/errors/api-error.js';
import type { MarketQuote } from '../../src/sources/prices/price-quotes.js';
import type { GraphContext } from '../shared/graph-context.js';
import { coinbaseSpotLoader, defillamaQuoteLoader, marketQuoteLoader } from './loaders.js';
import { askPriceSources, medianPrice } from './median-price.js';
import { PriceHistory, SmartPrice, TokenPrice, TrendingToken } from './types.js';

/** The table's listing of a symbol: bad syntax is a 400, a symbol the table does not hold a 404. */
function listingFor(symbol: string): TokenListing {
  const checked = parseArgument(tokenSymbol, 'symbol', symbol);
  const listing = findToken(checked);
  if (!listing) throw notFound(`unknown token symbol: ${checked.toUpperCase()}`);
  return listing;
}

function toTokenPrice(listing: TokenListing, quote: MarketQuote): TokenPrice {
  return {
    symbol: listing.symbol,
    price: quote.priceUsd,
    change24h: quote.change24hPercent ?? 0,
    volume24h: quote.volume24hUsd,
    marketCap: quote.marketCapUsd,
  };
}

const isoSeconds = (unixSeconds: number | null): string | null =>
  unixSeconds === null ? null : new Date(unixSeconds * 1000).toISOString();

@Resolver()
export class PricesResolver {
  @Query(() => TokenPrice, {
    nullable: true,
    description: 'USD price, 24 h change, volume and market cap of one token (CoinGecko)',
  })
  async tokenPrice(
    @Arg('symbol', () => String, { description: 'ticker, e.g. ETH' }) symbol: string,
    @Ctx() ctx: GraphContext,
  ): Promise<TokenPrice | null> {
    const listing = listingFor(symbol);
    const quote = await marketQuoteLoader.of(ctx).load(listing.coingeckoId);
    return quote ? toTokenPrice(listing, quote) : null;
  }

  @Query(() => [TokenPrice], {
    description: `Prices of up to ${MAX_BATCH_SYMBOLS} tokens in one upstream call, in the order asked (duplicates once); tokens the upstream has no quote for are left out`,
  })
  async tokenPrices(
    @Arg('symbols', () => [String], { description: `1 to ${MAX_BATCH_SYMBOLS} tickers` }) symbols: string[],
    @Ctx() ctx: GraphContext,
  ): Promise<TokenPrice[]> {
    const checked = parseArgument(symbolBatch, 'symbols', symbols);
    const unknown = checked.filter((s) => findToken(s) === undefined).map((s) => s.toUpperCase());
    if (unknown.length > 0)
      throw notFound(`unknown token symbol${unknown.length > 1 ? 's' : ''}: ${[...new Set(unknown)].join(', ')}`);
    const listings = [...new Map(checked.map((s) => [findToken(s)!.symbol, findToken(s)!])).values()];
    const loader = marketQuoteLoader.of(ctx);
    const quotes = await loader.loadMany(listings.map((l) => l.coingeckoId));
    const failure = quotes.find((q): q is Error => q instanceof Error);
    if (failure) throw failure;
    return listings.flatMap((listing, i) => {
      const quote = quotes[i] as MarketQuote | null;
      return quote ? [toTokenPrice(listing, quote)] : [];
    });
  }

  @Query(() => SmartPrice, {
    nullable: true,
    description:
      'Median USD price of CoinGecko, DefiLlama and Coinbase; a source that is down or more than 5 % from the median of all quotes is left out and listed with the reason',
  })
  async smartPrice(
    @Arg('symbol', () => String, { description: 'ticker, e.g. ETH' }) symbol: string,
    @Ctx() ctx: GraphContext,
  ): Promise<SmartPrice | null> {
    const listing = listingFor(symbol);
    const coingecko = marketQuoteLoader.of(ctx);
    const defillama = defillamaQuoteLoader.of(ctx);
    const coinbase = coinbaseSpotLoader.of(ctx);
    const pair = listing.coinbasePair;
    const answers = await askPriceSources({
      coingecko: async () => {
        const quote = await coingecko.load(listing.coingeckoId);
        return quote && { source: 'coingecko', priceUsd: quote.priceUsd, quotedAt: quote.quotedAt };
      },
      'defillama-coins': () => defillama.load(listing.coingeckoId),
      coinbase: pair === undefined ? null : () => coinbase.load(pair),
    });
    const now = Date.now();
    const combined = medianPrice(answers, now);
    if (!combined) return null;
    return {
      symbol: listing.symbol,
      price: combined.price,
      sourcesUsed: combined.sourcesUsed,
      sourcesAsked: combined.sourcesAsked,
      spreadPercent: combined.spreadPercent,
      outlierThresholdPercent: combined.outlierTolerancePercent,
      sources: combined.sources.map((v) => ({ ...v, quotedAt: isoSeconds(v.quotedAt) })),
      timestamp: new Date(now).toISOString(),
    };
  }

  @Query(() => PriceHistory, {
    nullable: true,
    description: 'USD price series of a token over the last `days` days (CoinGecko)',
  })
  async priceHistory(
    @Arg('symbol', () => String, { description: 'ticker, e.g. ETH' }) symbol: string,
    @Arg('days', () => Int, argumentOptions(historyDays)) days: number,
    @Ctx() ctx: GraphContext,
  ): Promise<PriceHistory | null> {
    const listing = listingFor(symbol);
    parseArgument(historyDays, 'days', days);
    const series = await ctx.sources.prices.coingecko.priceSeries(listing.coingeckoId, days);
    if (!series) return null;
    const granularity = days === 1 ? '5m' : days <= 90 ? 'hourly' : 'daily';
    return { symbol: listing.symbol, days, granularity, prices: series.prices };
  }

  @Query(() => [TrendingToken], {
    description: "CoinGecko's most searched coins of the last 24 hours (its list holds up to 15)",
  })
  async trendingTokens(
    @Arg('limit', () => Int, argumentOptions(trendingLimit)) limit: number,
    @Ctx() ctx: GraphContext,
  ): Promise<TrendingToken[]> {
    parseArgument(trendingLimit, 'limit', limit);
    const coins = await ctx.sources.prices.coingecko.trending();
    return coins.slice(0, limit).map((c) => ({
      rank: c.rank,
      id: c.coingeckoId,
      symbol: c.symbol,
      name: c.name,
      marketCapRank: c.marketCapRank,
      price: c.priceUsd,
      change24h: c.change24hPercent,
      marketCap: c.marketCapUsd,
      volume24h: c.volume24hUsd,
      thumb: c.thumb,
    }));
  }
}
