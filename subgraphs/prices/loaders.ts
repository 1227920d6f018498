import DataLoader from 'dataloader';
import type { MarketQuote, SpotQuote } from '../../src/sources/prices/price-quotes.js';
import type { PriceSources } from '../../src/sources/prices/price-sources.js';
import { MAX_BATCH_SYMBOLS } from '../../src/sources/prices/token-symbols.js';

/**
 * CoinGecko market data by coin id: every id asked in one request becomes ONE simple/price call.
 * @example await marketQuoteLoader(sources.prices).loadMany(['ethereum', 'bitcoin'])
 */
export function marketQuoteLoader(prices: PriceSources): DataLoader<string, MarketQuote | null> {
  return new DataLoader(
    async (ids) => {
      const quotes = await prices.coingecko.marketQuotes(ids);
      return ids.map((id) => quotes.get(id) ?? null);
    },
    { maxBatchSize: MAX_BATCH_SYMBOLS },
  );
}

/**
 * DefiLlama prices by CoinGecko coin id: ONE prices/current call per request.
 * @example await defillamaQuoteLoader(sources.prices).load('ethereum')
 */
export function defillamaQuoteLoader(prices: PriceSources): DataLoader<string, SpotQuote | null> {
  return new DataLoader(
    async (ids) => {
      const quotes = await prices.defillamaCoins.currentPrices(ids);
      return ids.map((id) => quotes.get(id) ?? null);
    },
    { maxBatchSize: MAX_BATCH_SYMBOLS },
  );
}

/**
 * Coinbase spot prices by pair. Coinbase prices one pair per request, so a batch is N concurrent calls;
 * one pair failing fails only that pair.
 * @example await coinbaseSpotLoader(sources.prices).load('ETH-USD')
 */
export function coinbaseSpotLoader(prices: PriceSources): DataLoader<string, SpotQuote | null> {
  return new DataLoader((pairs) =>
    Promise.all(
      pairs.map((pair) =>
        prices.coinbase.spotPrice(pair).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err)))),
      ),
    ),
  );
}
