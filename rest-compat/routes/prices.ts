import 'reflect-metadata';
import { z } from 'zod';
import { historyDays, symbolBatchQuery, trendingLimit } from '../../src/arguments/price-arguments.js';
import { MAX_BATCH_SYMBOLS, tokenSymbol } from '../../src/arguments/token-symbol.js';
import { PricesResolver } from '../../subgraphs/prices/resolvers.js';
import { rootField } from '../root-field.js';
import type { RouteRow } from '../route-row.js';

/** docs/api-contract.md#data-freshness: token prices 30 seconds; a shared cache may keep an answer that long. */
const PRICE_MAX_AGE_SECONDS = 30;

/** docs/api-contract.md#market-wallet-and-utilities: token prices, the multi-source median, history and trending. */
export const priceRoutes: RouteRow[] = [
  {
    kind: 'operation',
    id: 'getTokenPricesBatch',
    tool: 'get_token_prices_batch',
    method: 'GET',
    // Declared before /api/price/{symbol} for readers; fastify prefers the static segment whatever the order.
    path: '/api/price/batch',
    tag: 'Prices',
    summary: `Prices of up to ${MAX_BATCH_SYMBOLS} tokens in one call`,
    description:
      'An array of token prices in the order asked (a symbol repeated is answered once). A symbol the service does not list is a 404 naming it; a listed token the upstream has no quote for is left out of the array.',
    tier: 'heavy',
    price: '0.02',
    params: { query: z.object({ symbols: symbolBatchQuery }) },
    field: rootField(PricesResolver.prototype.tokenPrices),
    errors: [404],
    maxAge: PRICE_MAX_AGE_SECONDS,
  },
  {
    kind: 'operation',
    id: 'getTokenPrice',
    tool: 'get_token_price',
    method: 'GET',
    path: '/api/price/{symbol}',
    tag: 'Prices',
    summary: 'Token price in USD with 24 h change, volume and market cap',
    tier: 'light',
    price: '0.005',
    params: { path: z.object({ symbol: tokenSymbol }) },
    field: rootField(PricesResolver.prototype.tokenPrice),
    notFound: 'no price for this token',
    maxAge: PRICE_MAX_AGE_SECONDS,
  },
  {
    kind: 'operation',
    id: 'getSmartTokenPrice',
    tool: 'get_smart_token_price',
    method: 'GET',
    path: '/api/price/smart/{symbol}',
    tag: 'Prices',
    summary: 'Median price of independent sources (CoinGecko, DefiLlama, Coinbase), each quote listed with its age',
    description:
      'Every source is asked at once. A source that fails is listed as `unavailable`, one that does not list the token as `unlisted`; a quote more than 5 % from the median of all quotes is an `outlier`. The price is the median of the remaining quotes; 503 when no source answers.',
    tier: 'medium',
    price: '0.01',
    params: { path: z.object({ symbol: tokenSymbol }) },
    field: rootField(PricesResolver.prototype.smartPrice),
    notFound: 'no source quotes this token',
    maxAge: PRICE_MAX_AGE_SECONDS,
  },
  {
    kind: 'operation',
    id: 'getTokenPriceHistory',
    tool: 'get_token_price_history',
    method: 'GET',
    path: '/api/price/history/{symbol}',
    tag: 'Prices',
    summary: 'USD price history as [unix ms, price] pairs',
    tier: 'medium',
    price: '0.05',
    params: { path: z.object({ symbol: tokenSymbol }), query: z.object({ days: historyDays }) },
    field: rootField(PricesResolver.prototype.priceHistory),
    notFound: 'no price history for this token',
    maxAge: 60,
  },
  {
    kind: 'operation',
    id: 'getTrendingTokens',
    tool: 'get_trending_tokens',
    method: 'GET',
    path: '/api/market/trending',
    tag: 'Prices',
    summary: 'Trending coins (most searched over 24 hours) with price and 24 h change',
    tier: 'medium',
    price: '0.01',
    params: { query: z.object({ limit: trendingLimit }) },
    field: rootField(PricesResolver.prototype.trendingTokens),
    maxAge: 60,
  },
];
