/** The price sources the service reads, as /api/sources/health and smart prices name them. */
export type PriceSourceName = 'coingecko' | 'defillama-coins' | 'coinbase';

/** A coin's USD market data from CoinGecko: what a token price answer is made of. */
export interface MarketQuote {
  coingeckoId: string;
  priceUsd: number;
  /** Percent over 24 h; null when the upstream has none (a coin listed less than a day ago). */
  change24hPercent: number | null;
  volume24hUsd: number | null;
  marketCapUsd: number | null;
  /** Unix seconds of the upstream's own last update, when it gives one. */
  quotedAt: number | null;
}

/** One source's USD price of one coin, with the upstream's own timestamp where it gives one. */
export interface SpotQuote {
  source: PriceSourceName;
  priceUsd: number;
  /** Unix seconds; null where the upstream reply carries no time (Coinbase spot). */
  quotedAt: number | null;
}

/** A USD price series of one coin: [unix milliseconds, price] pairs, oldest first. */
export interface PriceSeries {
  coingeckoId: string;
  days: number;
  prices: [number, number][];
}

/** One coin of CoinGecko's trending-search list. */
export interface TrendingCoin {
  coingeckoId: string;
  symbol: string;
  name: string;
  /** 1-based position in the trending list. */
  rank: number;
  marketCapRank: number | null;
  priceUsd: number | null;
  change24hPercent: number | null;
  marketCapUsd: number | null;
  volume24hUsd: number | null;
  thumb: string | null;
}
