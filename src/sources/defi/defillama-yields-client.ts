import type { HttpJsonSource } from '../http-json-source.js';
import { finiteNumber, isJsonObject, UnexpectedReplyError } from '../json-reply.js';
import type { SourceClient } from '../source-client.js';
import type { YieldPool } from './defi-records.js';
import { type DefiUpstreamParams, defiUpstream, stringList, stringOrNull } from './defi-upstream.js';

/**
 * `/pools` → our pools, largest TVL first. Pools without an id, chain, project or TVL are left out.
 * @example mapPools({ status: 'success', data: [{ pool: 'p1', chain: 'Ethereum', project: 'lido', symbol: 'STETH', tvlUsd: 1e9, apy: 2.6 }] })[0].apy // 2.6
 */
export function mapPools(json: unknown): YieldPool[] {
  if (!isJsonObject(json) || !Array.isArray(json.data))
    throw new UnexpectedReplyError('/pools: expected { status, data: [...] }');
  const pools: YieldPool[] = [];
  for (const p of json.data) {
    if (!isJsonObject(p)) continue;
    const pool = stringOrNull(p.pool);
    const chain = stringOrNull(p.chain);
    const project = stringOrNull(p.project);
    const tvlUsd = finiteNumber(p.tvlUsd);
    if (pool === null || chain === null || project === null || tvlUsd === null) continue;
    pools.push({
      pool,
      chain,
      project,
      symbol: stringOrNull(p.symbol) ?? '',
      tvlUsd,
      apy: finiteNumber(p.apy),
      apyBase: finiteNumber(p.apyBase),
      apyReward: finiteNumber(p.apyReward),
      stablecoin: p.stablecoin === true,
      ilRisk: stringOrNull(p.ilRisk),
      exposure: stringOrNull(p.exposure),
      poolMeta: stringOrNull(p.poolMeta),
      rewardTokens: stringList(p.rewardTokens),
      underlyingTokens: stringList(p.underlyingTokens),
    });
  }
  return pools.sort((a, b) => b.tvlUsd - a.tvlUsd);
}

/**
 * DefiLlama's yields server (yields.llama.fi): every pool's TVL and APY in one reply of several MB,
 * fetched once per freshness window and paginated here.
 * @example
 * const yields = new DefiLlamaYieldsClient({ baseUrl: 'https://yields.llama.fi', mode: 'live', registry, timeoutMs: 5000 })
 * const pools = await yields.pools()
 */
export class DefiLlamaYieldsClient {
  readonly client: SourceClient;
  readonly http: HttpJsonSource;

  constructor(p: DefiUpstreamParams) {
    ({ client: this.client, http: this.http } = defiUpstream('defillama-yields', 'DefiLlama yields API', p));
  }

  async pools(): Promise<YieldPool[]> {
    return (await this.http.getMapped('/pools', mapPools)) ?? [];
  }
}
