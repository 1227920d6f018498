import { argumentList, commaSeparated } from './argument-list.js';
import { integerInRange, pageLimit } from './integer-range.js';
import { MAX_PAGE_LIMIT } from './pagination.js';
import { DEFAULT_HISTORY_DAYS, DEFAULT_TRENDING_LIMIT, MAX_HISTORY_DAYS } from './price-limits.js';
import { MAX_BATCH_SYMBOLS, tokenSymbol } from './token-symbol.js';

/** How many tickers one batch names, and what they are called in its refusal. */
const SYMBOL_BATCH = { max: MAX_BATCH_SYMBOLS, noun: 'symbols' };

/**
 * 1 to MAX_BATCH_SYMBOLS tickers as a list (GraphQL `tokenPrices(symbols:)`).
 * @example symbolBatch.parse(['ETH', 'btc']) // ['ETH', 'btc']
 */
export const symbolBatch = argumentList(tokenSymbol, SYMBOL_BATCH);

/**
 * The same batch as one comma-separated query value (GET /api/price/batch?symbols=ETH,BTC).
 * @example symbolBatchQuery.parse('ETH, BTC') // ['ETH', 'BTC']
 */
export const symbolBatchQuery = commaSeparated(tokenSymbol, SYMBOL_BATCH)
  .describe(`comma-separated token symbols, 1 to ${MAX_BATCH_SYMBOLS}`)
  .meta({ example: 'ETH,BTC,USDC' });

/**
 * Days of price history: 1 to MAX_HISTORY_DAYS, DEFAULT_HISTORY_DAYS when absent.
 * @example historyDays.parse('30') // 30
 */
export const historyDays = integerInRange(1, MAX_HISTORY_DAYS)
  .default(DEFAULT_HISTORY_DAYS)
  .describe(
    `days of history back from now, 1 to ${MAX_HISTORY_DAYS} (default ${DEFAULT_HISTORY_DAYS}); points are 5 minutes apart for 1 day, hourly up to 90 days, daily beyond`,
  );

/**
 * How many trending coins: 1 to the contract's page maximum (docs/api-contract.md#pagination), DEFAULT_TRENDING_LIMIT
 * when absent.
 * @example trendingLimit.parse(undefined) // 10
 */
export const trendingLimit = pageLimit(MAX_PAGE_LIMIT, DEFAULT_TRENDING_LIMIT).describe(
  `how many coins, 1 to ${MAX_PAGE_LIMIT} (default ${DEFAULT_TRENDING_LIMIT}); the upstream list holds up to 15`,
);
