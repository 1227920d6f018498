import type { SourceHealthRegistry, SourceMode } from '../source-health.js';
import { CoinbaseSpotClient } from './coinbase-spot-client.js';
import { CoinGeckoClient } from './coingecko-client.js';
import { DefiLlamaCoinsClient } from './defillama-coins-client.js';

/** The three independent price upstreams; the smart price is their median. */
export interface PriceSources {
  coingecko: CoinGeckoClient;
  defillamaCoins: DefiLlamaCoinsClient;
  coinbase: CoinbaseSpotClient;
}

/** Where one price upstream is: the real one (live) or the replay (local). */
export interface PriceUpstream {
  baseUrl: string;
  mode: SourceMode;
}

/**
 * Builds the price clients, each registered in the health registry under its own name
 * (coingecko, defillama-coins, coinbase).
 * @example createPriceSources({ coingecko: { baseUrl, mode: 'live' }, defillamaCoins, coinbase, registry, timeoutMs: 5000 })
 */
export function createPriceSources(p: {
  coingecko: PriceUpstream & { apiKey?: string | undefined };
  defillamaCoins: PriceUpstream;
  coinbase: PriceUpstream;
  registry: SourceHealthRegistry;
  timeoutMs: number;
}): PriceSources {
  const common = { registry: p.registry, timeoutMs: p.timeoutMs };
  const { apiKey, ...coingecko } = p.coingecko;
  return {
    coingecko: new CoinGeckoClient({ ...coingecko, ...common, ...(apiKey === undefined ? {} : { apiKey }) }),
    defillamaCoins: new DefiLlamaCoinsClient({ ...p.defillamaCoins, ...common }),
    coinbase: new CoinbaseSpotClient({ ...p.coinbase, ...common }),
  };
}
