import { describe, expect, it } from 'vitest';
import { findToken, isSymbolSyntax, MAX_BATCH_SYMBOLS, TOKEN_LISTINGS } from '../../src/arguments/token-symbol.js';
import { UnexpectedReplyError } from '../../src/sources/json-reply.js';
import { mapSpotPrice } from '../../src/sources/prices/coinbase-spot-client.js';
import {
  coingeckoKeyHeader,
  mapMarketChart,
  mapSimplePrice,
  mapTrending,
} from '../../src/sources/prices/coingecko-client.js';
import { mapCurrentPrices } from '../../src/sources/prices/defillama-coins-client.js';

describe('the token table', () => {
  it('holds more tokens than one batch may ask for, each symbol and CoinGecko id once', () => {
    expect(TOKEN_LISTINGS.length).toBeGreaterThan(MAX_BATCH_SYMBOLS);
    expect(new Set(TOKEN_LISTINGS.map((t) => t.symbol)).size).toBe(TOKEN_LISTINGS.length);
    expect(new Set(TOKEN_LISTINGS.map((t) => t.coingeckoId)).size).toBe(TOKEN_LISTINGS.length);
    for (const t of TOKEN_LISTINGS) {
      expect(isSymbolSyntax(t.symbol)).toBe(true);
      if (t.coinbasePair) expect(t.coinbasePair).toBe(`${t.symbol}-USD`);
    }
  });

  it('finds a symbol in any case and knows nothing of others', () => {
    expect(findToken('eth')).toMatchObject({ symbol: 'ETH', coingeckoId: 'ethereum', coinbasePair: 'ETH-USD' });
    expect(findToken('Matic')?.coinbasePair).toBeUndefined();
    expect(findToken('NOPE')).toBeUndefined();
  });

  it('accepts 1–15 letters, digits, dots and dashes as a symbol', () => {
    for (const ok of ['A', '1INCH', 'USDC.E', 'BTC-B', 'ABCDEFGHIJKLMNO']) expect(isSymbolSyntax(ok)).toBe(true);
    for (const bad of ['', 'ABCDEFGHIJKLMNOP', 'ET H', 'ETH$', 'ÉTH', '../x']) expect(isSymbolSyntax(bad)).toBe(false);
  });
});

describe('CoinGecko replies become our quotes at the edge', () => {
  const reply = {
    ethereum: {
      usd: 3012.45,
      usd_market_cap: 3.6e11,
      usd_24h_vol: 1.4e10,
      usd_24h_change: -1.23,
      last_updated_at: 1748865587,
    },
    bitcoin: { usd: 67234.18 },
    'broken-coin': { usd: null, usd_market_cap: 1 },
    'not-asked': { usd: 1 },
  };

  it('simple/price: each asked id with its numbers, nulls where the upstream left a field out', () => {
    const quotes = mapSimplePrice(reply, ['bitcoin', 'ethereum', 'broken-coin', 'missing']);
    expect([...quotes.keys()].sort()).toEqual(['bitcoin', 'ethereum']);
    expect(quotes.get('ethereum')).toEqual({
      coingeckoId: 'ethereum',
      priceUsd: 3012.45,
      change24hPercent: -1.23,
      volume24hUsd: 1.4e10,
      marketCapUsd: 3.6e11,
      quotedAt: 1748865587,
    });
    expect(quotes.get('bitcoin')).toMatchObject({
      priceUsd: 67234.18,
      change24hPercent: null,
      volume24hUsd: null,
      marketCapUsd: null,
      quotedAt: null,
    });
  });

  it('simple/price: a reply that is not an object of coins is refused', () => {
    expect(() => mapSimplePrice([], ['ethereum'])).toThrow(UnexpectedReplyError);
    expect(() => mapSimplePrice('ok', ['ethereum'])).toThrow(UnexpectedReplyError);
    expect(mapSimplePrice({}, ['ethereum']).size).toBe(0);
  });

  it('market_chart: keeps the price pairs, drops gaps, refuses another shape', () => {
    const series = mapMarketChart(
      {
        prices: [
          [1, 10.5],
          [2, null],
          [3, 11],
        ],
        market_caps: [[1, 5]],
        total_volumes: [[1, 6]],
      },
      'ethereum',
      7,
    );
    expect(series).toEqual({
      coingeckoId: 'ethereum',
      days: 7,
      prices: [
        [1, 10.5],
        [3, 11],
      ],
    });
    expect(() => mapMarketChart({ error: 'coin not found' }, 'x', 1)).toThrow(UnexpectedReplyError);
    expect(() => mapMarketChart({ prices: [5] }, 'x', 1)).toThrow(UnexpectedReplyError);
  });

  it('search/trending: coins in order with money strings read as numbers', () => {
    const coins = mapTrending({
      coins: [
        {
          item: {
            id: 'pepe',
            coin_id: 29850,
            name: 'Pepe',
            symbol: 'pepe',
            market_cap_rank: 28,
            thumb: 'https://img/pepe.png',
            score: 0,
            data: {
              price: 0.00001078,
              price_change_percentage_24h: { usd: 6.42 },
              market_cap: '$4,534,000,000',
              total_volume: '$317,380,000',
            },
          },
        },
        { item: { id: 'kaito', name: 'KAITO', symbol: 'KAITO', score: 1 } },
      ],
      nfts: [],
      categories: [],
    });
    expect(coins).toEqual([
      {
        coingeckoId: 'pepe',
        symbol: 'PEPE',
        name: 'Pepe',
        rank: 1,
        marketCapRank: 28,
        priceUsd: 0.00001078,
        change24hPercent: 6.42,
        marketCapUsd: 4534000000,
        volume24hUsd: 317380000,
        thumb: 'https://img/pepe.png',
      },
      {
        coingeckoId: 'kaito',
        symbol: 'KAITO',
        name: 'KAITO',
        rank: 2,
        marketCapRank: null,
        priceUsd: null,
        change24hPercent: null,
        marketCapUsd: null,
        volume24hUsd: null,
        thumb: null,
      },
    ]);
    expect(() => mapTrending({ coins: [{ item: { id: 'x' } }] })).toThrow(UnexpectedReplyError);
  });

  it('sends a demo key to the public API and a pro key to pro-api, and none without a key', () => {
    expect(coingeckoKeyHeader('https://api.coingecko.com', 'k')).toEqual({ 'x-cg-demo-api-key': 'k' });
    expect(coingeckoKeyHeader('https://pro-api.coingecko.com', 'k')).toEqual({ 'x-cg-pro-api-key': 'k' });
    expect(coingeckoKeyHeader('https://api.coingecko.com', undefined)).toEqual({});
  });
});

describe('DefiLlama and Coinbase replies become our quotes at the edge', () => {
  it('prices/current: each asked coin with its own timestamp', () => {
    const quotes = mapCurrentPrices(
      {
        coins: {
          'coingecko:ethereum': { symbol: 'ETH', price: 3010.12, timestamp: 1748865561, confidence: 0.99 },
          'coingecko:bitcoin': { symbol: 'BTC', price: 'n/a', timestamp: 1 },
        },
      },
      ['ethereum', 'bitcoin', 'dai'],
    );
    expect([...quotes.entries()]).toEqual([
      ['ethereum', { source: 'defillama-coins', priceUsd: 3010.12, quotedAt: 1748865561 }],
    ]);
    expect(() => mapCurrentPrices({ message: 'Internal server error' }, ['ethereum'])).toThrow(UnexpectedReplyError);
  });

  it('prices/spot: the decimal string as a number, without a time (Coinbase gives none)', () => {
    expect(mapSpotPrice({ data: { amount: '3013.90', base: 'ETH', currency: 'USD' } }, 'ETH-USD')).toEqual({
      source: 'coinbase',
      priceUsd: 3013.9,
      quotedAt: null,
    });
  });

  it('prices/spot: refuses another currency or base than the pair asked, and other shapes', () => {
    expect(() => mapSpotPrice({ data: { amount: '2768.41', base: 'ETH', currency: 'EUR' } }, 'ETH-USD')).toThrow(
      UnexpectedReplyError,
    );
    expect(() => mapSpotPrice({ data: { amount: '67000', base: 'BTC', currency: 'USD' } }, 'ETH-USD')).toThrow(
      UnexpectedReplyError,
    );
    expect(() => mapSpotPrice({ errors: [{ id: 'not_found' }] }, 'ETH-USD')).toThrow(UnexpectedReplyError);
    expect(() => mapSpotPrice({ data: { amount: '0', currency: 'USD' } }, 'ETH-USD')).toThrow(UnexpectedReplyError);
  });
});
