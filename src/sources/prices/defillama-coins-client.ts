import type { HttpJsonSource } from '../http-json-source.js';
import { httpUpstream, type UpstreamClientParams } from '../http-upstream.js';
import { finiteNumber, isJsonObject, UnexpectedReplyError } from '../json-reply.js';
import type { SourceClient } from '../source-client.js';
import { PRICE_FRESHNESS_MS } from './price-freshness.js';
import type { SpotQuote } from './price-quotes.js';

/** DefiLlama names a coin CoinGecko lists as `coingecko:<id>`. */
const coinKey = (coingeckoId: string): string => `coingecko:${coingeckoId}`;

/**
 * `/prices/current/{coins}` → our quotes for the ids asked, timestamped by DefiLlama's own `timestamp` (unix s).
 * Coins DefiLlama cannot price are absent from `coins`, and from the map.
 * @example mapCurrentPrices({ coins: { 'coingecko:ethereum': { price: 3010.1, timestamp: 1748865590 } } }, ['ethereum']).get('ethereum')?.priceUsd // 3010.1
 */
export function mapCurrentPrices(json: unknown, ids: readonly string[]): Map<string, SpotQuote> {
  if (!isJsonObject(json) || !isJsonObject(json.coins)) {
    throw new UnexpectedReplyError('prices/current: expected { coins: { "<chain>:<id>": { price, timestamp } } }');
  }
  const quotes = new Map<string, SpotQuote>();
  for (const id of ids) {
    const entry = json.coins[coinKey(id)];
    if (!isJsonObject(entry)) continue;
    const priceUsd = finiteNumber(entry.price);
    if (priceUsd === null || priceUsd <= 0) continue;
    quotes.set(id, { source: 'defillama-coins', priceUsd, quotedAt: finiteNumber(entry.timestamp) });
  }
  return quotes;
}

/**
 * DefiLlama's coins API (coins.llama.fi): current USD prices of many coins in ONE request, the coins listed in the
 * path (`/prices/current/coingecko:bitcoin,coingecko:ethereum`).
 * @example
 * const llama = new DefiLlamaCoinsClient({ baseUrl: 'https://coins.llama.fi', mode: 'live', registry, timeoutMs: 5000 })
 * const quotes = await llama.currentPrices(['ethereum', 'bitcoin'])
 */
export class DefiLlamaCoinsClient {
  readonly client: SourceClient;
  readonly http: HttpJsonSource;

  constructor(p: UpstreamClientParams) {
    ({ client: this.client, http: this.http } = httpUpstream({
      ...p,
      name: 'defillama-coins',
      kind: 'prices',
      description: 'DefiLlama coins API',
      freshnessMs: PRICE_FRESHNESS_MS,
    }));
  }

  /** USD prices of every CoinGecko-listed id in one request (ids sorted: one set of ids is one cache entry). */
  async currentPrices(coingeckoIds: readonly string[]): Promise<Map<string, SpotQuote>> {
    const unique = [...new Set(coingeckoIds)].sort();
    if (unique.length === 0) return new Map();
    const path = `/prices/current/${unique.map(coinKey).join(',')}`;
    const quotes = await this.http.getMapped(path, (json) => mapCurrentPrices(json, unique));
    return quotes ?? new Map();
  }
}
