import type { HttpJsonSource } from '../http-json-source.js';
import { httpUpstream, type UpstreamClientParams } from '../http-upstream.js';
import { finiteNumber, isJsonObject, UnexpectedReplyError } from '../json-reply.js';
import type { SourceClient } from '../source-client.js';
import { PRICE_FRESHNESS_MS } from './price-freshness.js';
import type { MarketQuote, PriceSeries, TrendingCoin } from './price-quotes.js';

/** Chart points and the trending list move slowly (CoinGecko refreshes trending every 10 minutes). */
const SLOW_DATA_FRESHNESS_MS = 5 * 60_000;

/** Parameters of {@link CoinGeckoClient}: a demo key goes to api.coingecko.com, a pro key to pro-api.coingecko.com. */
export interface CoinGeckoClientParams extends UpstreamClientParams {
  apiKey?: string;
}

/**
 * The header CoinGecko reads a key from: pro keys on pro-api.coingecko.com, demo keys everywhere else.
 * @example coingeckoKeyHeader('https://pro-api.coingecko.com', 'k') // { 'x-cg-pro-api-key': 'k' }
 */
export function coingeckoKeyHeader(baseUrl: string, apiKey: string | undefined): Record<string, string> {
  if (apiKey === undefined || apiKey === '') return {};
  return /^https?:\/\/pro-api\./i.test(baseUrl) ? { 'x-cg-pro-api-key': apiKey } : { 'x-cg-demo-api-key': apiKey };
}

/**
 * `/api/v3/simple/price` (usd, market cap, 24 h volume and change, last update) → our quotes, for the ids asked.
 * CoinGecko leaves out ids it does not know; an entry without a numeric `usd` counts as no quote.
 * @example mapSimplePrice({ ethereum: { usd: 3012.45, usd_24h_change: -1.2 } }, ['ethereum']).get('ethereum')?.priceUsd // 3012.45
 */
export function mapSimplePrice(json: unknown, ids: readonly string[]): Map<string, MarketQuote> {
  if (!isJsonObject(json)) throw new UnexpectedReplyError('simple/price: expected an object keyed by coin id');
  const quotes = new Map<string, MarketQuote>();
  for (const id of ids) {
    const entry = json[id];
    if (!isJsonObject(entry)) continue;
    const priceUsd = finiteNumber(entry.usd);
    if (priceUsd === null || priceUsd <= 0) continue;
    quotes.set(id, {
      coingeckoId: id,
      priceUsd,
      change24hPercent: finiteNumber(entry.usd_24h_change),
      volume24hUsd: finiteNumber(entry.usd_24h_vol),
      marketCapUsd: finiteNumber(entry.usd_market_cap),
      quotedAt: finiteNumber(entry.last_updated_at),
    });
  }
  return quotes;
}

/**
 * `/api/v3/coins/{id}/market_chart` → the `prices` series as [unix ms, USD] pairs (market caps and volumes dropped).
 * @example mapMarketChart({ prices: [[1717000000000, 3800.5]] }, 'ethereum', 1).prices // [[1717000000000, 3800.5]]
 */
export function mapMarketChart(json: unknown, coingeckoId: string, days: number): PriceSeries {
  if (!isJsonObject(json) || !Array.isArray(json.prices)) {
    throw new UnexpectedReplyError('market_chart: expected { prices: [[ms, price], …] }');
  }
  const prices: [number, number][] = [];
  for (const point of json.prices) {
    if (!Array.isArray(point) || point.length < 2)
      throw new UnexpectedReplyError('market_chart: a point is not a pair');
    const time = finiteNumber(point[0]);
    const price = finiteNumber(point[1]);
    // CoinGecko writes null for a gap in its data; a gap is left out, not drawn as zero.
    if (time !== null && price !== null) prices.push([time, price]);
  }
  return { coingeckoId, days, prices };
}

/** "$1,234,567" (how trending writes money) or a plain number → a number. */
function money(value: unknown): number | null {
  return typeof value === 'string' ? finiteNumber(value.replace(/[$,\s]/g, '')) : finiteNumber(value);
}

/**
 * `/api/v3/search/trending` → its coins in list order (NFTs and categories dropped).
 * @example mapTrending({ coins: [{ item: { id: 'pepe', symbol: 'PEPE', name: 'Pepe', score: 0 } }] })[0]?.rank // 1
 */
export function mapTrending(json: unknown): TrendingCoin[] {
  if (!isJsonObject(json) || !Array.isArray(json.coins))
    throw new UnexpectedReplyError('search/trending: expected { coins: […] }');
  const coins: TrendingCoin[] = [];
  for (const wrapper of json.coins) {
    const item = isJsonObject(wrapper) && isJsonObject(wrapper.item) ? wrapper.item : undefined;
    if (!item || typeof item.id !== 'string' || typeof item.symbol !== 'string' || typeof item.name !== 'string') {
      throw new UnexpectedReplyError('search/trending: a coin lacks id, symbol or name');
    }
    const data = isJsonObject(item.data) ? item.data : {};
    const change = isJsonObject(data.price_change_percentage_24h) ? data.price_change_percentage_24h.usd : undefined;
    coins.push({
      coingeckoId: item.id,
      symbol: item.symbol.toUpperCase(),
      name: item.name,
      rank: coins.length + 1,
      marketCapRank: finiteNumber(item.market_cap_rank),
      priceUsd: money(data.price),
      change24hPercent: finiteNumber(change),
      marketCapUsd: money(data.market_cap),
      volume24hUsd: money(data.total_volume),
      thumb: typeof item.thumb === 'string' ? item.thumb : null,
    });
  }
  return coins;
}

/**
 * CoinGecko v3: market data for many coins in one `simple/price` call, price charts, the trending list.
 * Paths carry `/api/v3`, so the base URL is the origin (a configured URL ending in /api/v3 is accepted too).
 * @example
 * const coingecko = new CoinGeckoClient({ baseUrl: 'https://api.coingecko.com', mode: 'live', registry, timeoutMs: 5000 })
 * const quotes = await coingecko.marketQuotes(['ethereum', 'bitcoin']) // one upstream request
 */
export class CoinGeckoClient {
  readonly client: SourceClient;
  readonly http: HttpJsonSource;

  constructor(p: CoinGeckoClientParams) {
    const baseUrl = p.baseUrl.replace(/\/+$/, '').replace(/\/api\/v3$/, '');
    ({ client: this.client, http: this.http } = httpUpstream({
      ...p,
      name: 'coingecko',
      kind: 'prices',
      description: 'CoinGecko API v3',
      freshnessMs: PRICE_FRESHNESS_MS,
      baseUrl,
      headers: coingeckoKeyHeader(baseUrl, p.apiKey),
    }));
  }

  /**
   * USD price, 24 h change and volume, market cap of every id, in ONE request (ids sorted, so one set of ids is
   * one cache entry whatever order it was asked in). Ids CoinGecko has no quote for are absent from the map.
   */
  async marketQuotes(ids: readonly string[]): Promise<Map<string, MarketQuote>> {
    const unique = [...new Set(ids)].sort();
    if (unique.length === 0) return new Map();
    const quotes = await this.http.getMapped('/api/v3/simple/price', (json) => mapSimplePrice(json, unique), {
      query: {
        ids: unique.join(','),
        vs_currencies: 'usd',
        include_market_cap: true,
        include_24hr_vol: true,
        include_24hr_change: true,
        include_last_updated_at: true,
      },
    });
    return quotes ?? new Map();
  }

  /** The USD price series of the last `days` days (CoinGecko picks the spacing: 5 min, hourly, daily); null for an unknown coin. */
  priceSeries(coingeckoId: string, days: number): Promise<PriceSeries | null> {
    return this.http.getMapped(
      `/api/v3/coins/${encodeURIComponent(coingeckoId)}/market_chart`,
      (json) => mapMarketChart(json, coingeckoId, days),
      { query: { vs_currency: 'usd', days }, freshnessMs: SLOW_DATA_FRESHNESS_MS },
    );
  }

  /** The coins most searched on CoinGecko in the last 24 hours, in its order. */
  async trending(): Promise<TrendingCoin[]> {
    const coins = await this.http.getMapped('/api/v3/search/trending', mapTrending, {
      freshnessMs: SLOW_DATA_FRESHNESS_MS,
    });
    return coins ?? [];
  }
}
