import { MAX_BATCH_SYMBOLS } from '../../src/arguments/token-symbol.js';
import type { MarketQuote, SpotQuote } from '../../src/sources/prices/price-quotes.js';
import type { Sources } from '../../src/sources/sources.js';
import { defineLoader } from '../shared/define-loader.js';

/**
 * CoinGecko market data by coin id: every id asked in one request becomes ONE simple/price call.
 * @example await marketQuoteLoader.of(ctx).loadMany(['ethereum', 'bitcoin'])
 */
export const marketQuoteLoader = defineLoader<string, MarketQuote | null, Sources>({
  name: 'marketQuote',
  batch: async (ids, sources) => {
    const quotes = await sources.prices.coingecko.marketQuotes(ids);
    return ids.map((id) => quotes.get(id) ?? null);
  },
  maxBatchSize: MAX_BATCH_SYMBOLS,
});

/**
 * DefiLlama prices by CoinGecko coin id: ONE prices/current call per request.
 * @example await defillamaQuoteLoader.of(ctx).load('ethereum')
 */
export const defillamaQuoteLoader = defineLoader<string, SpotQuote | null, Sources>({
  name: 'defillamaQuote',
  batch: async (ids, sources) => {
    const quotes = await sources.prices.defillamaCoins.currentPrices(ids);
    return ids.map((id) => quotes.get(id) ?? null);
  },
  maxBatchSize: MAX_BATCH_SYMBOLS,
});

/**
 * Coinbase spot prices by pair. Coinbase prices one pair per request, so a batch is N concurrent calls;
 * one pair failing fails only that pair.
 * @example await coinbaseSpotLoader.of(ctx).load('ETH-USD')
 */
export const coinbaseSpotLoader = defineLoader<string, SpotQuote | null, Sources>({
  name: 'coinbaseSpot',
  batch: (pairs, sources) =>
    Promise.all(
      pairs.map((pair) =>
        sources.prices.coinbase
          .spotPrice(pair)
          .catch((err: unknown) => (err instanceof Error ? err : new Error(String(err)))),
      ),
    ),
});
