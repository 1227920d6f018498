import type { HttpJsonSource } from '../http-json-source.js';
import { finiteNumber, isJsonObject, UnexpectedReplyError } from '../json-reply.js';
import type { SourceClient } from '../source-client.js';
import type { ProtocolDetail, ProtocolSummary } from './defi-records.js';
import { type DefiUpstreamParams, defiUpstream, stringList, stringOrNull } from './defi-upstream.js';

/** DefiLlama's slugs: lower-case letters, digits and a few separators (`polygon-bridge-&-staking`, `ether.fi-stake`). */
export const PROTOCOL_SLUG = /^[a-z0-9][a-z0-9.&+_-]{0,79}$/;

/** Keys of `currentChainTvls` that are sub-totals, not chains: `borrowed`, `staking`, `Ethereum-borrowed` … */
const SUB_TOTAL = /(^|-)(borrowed|staking|pool2|vesting|treasury|offers|doublecounted|liquidstaking|dcandlsoverlap)$/i;

const byTvlDescending = (a: { tvlUsd: number | null }, b: { tvlUsd: number | null }): number =>
  (b.tvlUsd ?? -1) - (a.tvlUsd ?? -1);

/**
 * `/protocols` → our summaries, largest TVL first (DefiLlama's order is not guaranteed). Entries without a name or
 * slug are left out; a reply that is not a list is an upstream failure.
 * @example mapProtocols([{ name: 'Lido', slug: 'lido', tvl: 3.1e10, chains: ['Ethereum'] }])[0].tvlUsd // 31000000000
 */
export function mapProtocols(json: unknown): ProtocolSummary[] {
  if (!Array.isArray(json)) throw new UnexpectedReplyError('/protocols: expected a list of protocols');
  const protocols: ProtocolSummary[] = [];
  for (const entry of json) {
    if (!isJsonObject(entry)) continue;
    const name = stringOrNull(entry.name);
    const slug = stringOrNull(entry.slug);
    if (name === null || slug === null) continue;
    protocols.push({
      name,
      slug,
      category: stringOrNull(entry.category),
      chains: stringList(entry.chains),
      tvlUsd: finiteNumber(entry.tvl),
      change1hPercent: finiteNumber(entry.change_1h),
      change1dPercent: finiteNumber(entry.change_1d),
      change7dPercent: finiteNumber(entry.change_7d),
      mcapUsd: finiteNumber(entry.mcap),
      symbol: stringOrNull(entry.symbol) === '-' ? null : stringOrNull(entry.symbol),
      url: stringOrNull(entry.url),
      logo: stringOrNull(entry.logo),
    });
  }
  return protocols.sort(byTvlDescending);
}

/**
 * `/protocol/{slug}` → TVL per chain now (sub-totals such as `borrowed` left out) and the daily history.
 * @example mapProtocolDetail({ name: 'Lido', currentChainTvls: { Ethereum: 3e10, borrowed: 1 }, tvl: [] }).chainTvls // [{ chain: 'Ethereum', tvlUsd: 3e10 }]
 */
export function mapProtocolDetail(json: unknown): ProtocolDetail {
  if (!isJsonObject(json) || stringOrNull(json.name) === null) {
    throw new UnexpectedReplyError('/protocol/{slug}: expected { name, currentChainTvls, tvl: [...] }');
  }
  const current = isJsonObject(json.currentChainTvls) ? json.currentChainTvls : {};
  const chainTvls = Object.entries(current)
    .filter(([chain]) => !SUB_TOTAL.test(chain))
    .flatMap(([chain, value]) => {
      const tvlUsd = finiteNumber(value);
      return tvlUsd === null ? [] : [{ chain, tvlUsd }];
    })
    .sort((a, b) => b.tvlUsd - a.tvlUsd);
  const history = Array.isArray(json.tvl) ? json.tvl : [];
  const tvlHistory = history.flatMap((point) => {
    if (!isJsonObject(point)) return [];
    const date = finiteNumber(point.date);
    const tvlUsd = finiteNumber(point.totalLiquidityUSD);
    return date === null || tvlUsd === null ? [] : [{ date, tvlUsd }];
  });
  return {
    name: json.name as string,
    description: stringOrNull(json.description),
    url: stringOrNull(json.url),
    twitter: stringOrNull(json.twitter),
    category: stringOrNull(json.category),
    chains: stringList(json.chains),
    chainTvls,
    tvlHistory: tvlHistory.sort((a, b) => a.date - b.date),
    mcapUsd: finiteNumber(json.mcap),
  };
}

/**
 * DefiLlama's free TVL API (api.llama.fi): the protocol list and one protocol's detail (hacks and raises are pro-only:
 * DefiLlamaProClient).
 * `/protocols` is several MB: it is fetched once per freshness window and paginated here, never upstream.
 * @example
 * const llama = new DefiLlamaClient({ baseUrl: 'https://api.llama.fi', mode: 'live', registry, timeoutMs: 5000 })
 * const top = (await llama.protocols()).slice(0, 10)
 */
export class DefiLlamaClient {
  readonly client: SourceClient;
  readonly http: HttpJsonSource;

  constructor(p: DefiUpstreamParams) {
    ({ client: this.client, http: this.http } = defiUpstream('defillama', 'DefiLlama TVL API', p));
  }

  /** Every protocol, largest TVL first. */
  async protocols(): Promise<ProtocolSummary[]> {
    return (await this.http.getMapped('/protocols', mapProtocols)) ?? [];
  }

  /** One protocol by DefiLlama slug; null when DefiLlama has none (HTTP 404). */
  async protocol(slug: string): Promise<ProtocolDetail | null> {
    if (!PROTOCOL_SLUG.test(slug)) throw new TypeError(`not a DefiLlama slug: ${slug}`);
    return this.http.getMapped(`/protocol/${encodeURIComponent(slug)}`, mapProtocolDetail);
  }
}
