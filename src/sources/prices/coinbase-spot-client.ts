import type { HttpJsonSource } from '../http-json-source.js';
import { httpUpstream, type UpstreamClientParams } from '../http-upstream.js';
import { finiteNumber, isJsonObject, UnexpectedReplyError } from '../json-reply.js';
import type { SourceClient } from '../source-client.js';
import { PRICE_FRESHNESS_MS } from './price-freshness.js';
import type { SpotQuote } from './price-quotes.js';

/** Coinbase pairs as the spot route takes them: `ETH-USD`. */
const PAIR = /^[A-Z0-9]{1,15}-USD$/;

/**
 * `/v2/prices/{pair}/spot` → our quote. The reply carries no time, so the quote has none. Coinbase has been
 * seen answering in another currency than the pair's; a quote not in USD (or for another base) is refused.
 * @example mapSpotPrice({ data: { amount: '3013.9', base: 'ETH', currency: 'USD' } }, 'ETH-USD').priceUsd // 3013.9
 */
export function mapSpotPrice(json: unknown, pair: string): SpotQuote {
  const data = isJsonObject(json) && isJsonObject(json.data) ? json.data : undefined;
  const priceUsd = data ? finiteNumber(data.amount) : null;
  if (!data || priceUsd === null || priceUsd <= 0)
    throw new UnexpectedReplyError('prices/spot: expected { data: { amount, currency } }');
  const [base] = pair.split('-');
  if (data.currency !== 'USD' || (data.base !== undefined && data.base !== base)) {
    throw new UnexpectedReplyError(`prices/spot: asked for ${pair}, got ${String(data.base)}-${String(data.currency)}`);
  }
  return { source: 'coinbase', priceUsd, quotedAt: null };
}

/**
 * Coinbase's public spot price (api.coinbase.com/v2/prices/{pair}/spot). The real API prices ONE pair per request
 * (no multi-pair spot route exists), so N symbols cost N requests, made concurrently by the loader.
 * @example
 * const coinbase = new CoinbaseSpotClient({ baseUrl: 'https://api.coinbase.com', mode: 'live', registry, timeoutMs: 5000 })
 * await coinbase.spotPrice('ETH-USD') // { source: 'coinbase', priceUsd: 3013.9, quotedAt: null }
 */
export class CoinbaseSpotClient {
  readonly client: SourceClient;
  readonly http: HttpJsonSource;

  constructor(p: UpstreamClientParams) {
    ({ client: this.client, http: this.http } = httpUpstream({
      ...p,
      name: 'coinbase',
      kind: 'prices',
      description: 'Coinbase spot prices API v2',
      freshnessMs: PRICE_FRESHNESS_MS,
    }));
  }

  /** The spot price of one `BASE-USD` pair; null when Coinbase does not list it (HTTP 404). */
  async spotPrice(pair: string): Promise<SpotQuote | null> {
    if (!PAIR.test(pair)) throw new TypeError(`not a Coinbase USD pair: ${pair}`);
    return this.http.getMapped(`/v2/prices/${pair}/spot`, (json) => mapSpotPrice(json, pair));
  }
}
