import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import { argumentOptions } from '../../src/arguments/argument-options.js';
import {
  defiListLimit,
  defiOffset,
  poolChainFilter,
  poolProjectFilter,
  protocolName,
} from '../../src/arguments/defi-arguments.js';
import { PROTOCOL_HISTORY_DAYS } from '../../src/arguments/defi-limits.js';
import { checksummedAddress } from '../../src/arguments/evm-address.js';
import { parseArgument } from '../../src/arguments/parse-argument.js';
import { findChain } from '../../src/config/chains.js';
import type { DefiPosition, PositionToken, ProtocolSummary } from '../../src/sources/defi/defi-records.js';
import type { GraphContext } from '../shared/graph-context.js';
import { checkPage, paginate } from './paginate.js';
import {
  DefiPositionItem,
  DefiPositions,
  DefiProtocol,
  DefiProtocolPage,
  DefiProtocolStats,
  type PositionTokenAmount,
  YieldPoolPage,
} from './types.js';

/**
 * DeBank's chain ids of the supported chains (docs/api-contract.md#supported-chains); positions on other chains keep
 * DeBank's id.
 */
const DEBANK_CHAINS: Record<string, string> = {
  eth: 'ethereum',
  base: 'base',
  arb: 'arbitrum',
  op: 'optimism',
  matic: 'polygon',
};

const isoSeconds = (unixSeconds: number | null): string | null =>
  unixSeconds === null ? null : new Date(unixSeconds * 1000).toISOString();

function toProtocol(p: ProtocolSummary): DefiProtocol {
  return {
    name: p.name,
    slug: p.slug,
    category: p.category,
    chains: p.chains,
    tvl: p.tvlUsd,
    change1h: p.change1hPercent,
    change1d: p.change1dPercent,
    change7d: p.change7dPercent,
    mcap: p.mcapUsd,
    symbol: p.symbol,
    url: p.url,
    logo: p.logo,
  };
}

/** A protocol of the list by slug or display name, any case; spaces in a name may be written as dashes. */
function findProtocol(protocols: readonly ProtocolSummary[], asked: string): ProtocolSummary | undefined {
  const wanted = asked.trim().toLowerCase();
  const dashed = wanted.replace(/\s+/g, '-');
  return (
    protocols.find((p) => p.slug === wanted || p.slug === dashed) ??
    protocols.find((p) => p.name.toLowerCase() === wanted || p.name.toLowerCase().replace(/\s+/g, '-') === dashed)
  );
}

const toTokens = (tokens: PositionToken[]): PositionTokenAmount[] =>
  tokens.map((t) => ({
    symbol: t.symbol,
    address: t.address,
    amount: t.amount,
    price: t.priceUsd,
    valueUsd: t.valueUsd,
  }));

function toPosition(p: DefiPosition): DefiPositionItem {
  return {
    protocolId: p.protocolId,
    protocol: p.protocol,
    chain: DEBANK_CHAINS[p.chain] ?? p.chain,
    kind: p.kind,
    assetUsd: p.assetUsd,
    debtUsd: p.debtUsd,
    netUsd: p.netUsd,
    supplied: toTokens(p.supplied),
    borrowed: toTokens(p.borrowed),
    rewards: toTokens(p.rewards),
    healthRate: p.healthRate,
    updatedAt: isoSeconds(p.updatedAt),
  };
}

/** Sums USD values in whole cents, so that the totals do not carry binary rounding noise. */
const sumUsd = (values: number[]): number => values.reduce((cents, v) => cents + Math.round(v * 100), 0) / 100;

@Resolver()
export class DefiResolver {
  @Query(() => DefiProtocolPage, {
    description: 'DeFi protocols by TVL, largest first (DefiLlama; one upstream call per 5 minutes)',
  })
  async defiProtocols(
    @Arg('limit', () => Int, argumentOptions(defiListLimit)) limit: number,
    @Arg('offset', () => Int, argumentOptions(defiOffset)) offset: number,
    @Ctx() ctx: GraphContext,
  ): Promise<DefiProtocolPage> {
    checkPage(limit, offset);
    const protocols = await ctx.sources.defi.defillama.protocols();
    const page = paginate(protocols, limit, offset);
    return { data: page.data.map(toProtocol), pagination: page.pagination };
  }

  @Query(() => DefiProtocolStats, {
    nullable: true,
    description:
      'One protocol by DefiLlama slug or name: TVL now, per chain, changes and 30 days of history; null when DefiLlama does not list it',
  })
  async defiProtocol(
    @Arg('name', () => String, { description: 'slug (aave-v3) or name (AAVE V3)' }) name: string,
    @Ctx() ctx: GraphContext,
  ): Promise<DefiProtocolStats | null> {
    const summary = findProtocol(
      await ctx.sources.defi.defillama.protocols(),
      parseArgument(protocolName, 'name', name),
    );
    if (!summary) return null;
    const detail = await ctx.sources.defi.defillama.protocol(summary.slug);
    if (!detail) return null;
    return {
      ...toProtocol(summary),
      name: detail.name,
      category: detail.category ?? summary.category,
      description: detail.description,
      url: detail.url ?? summary.url,
      twitter: detail.twitter,
      chains: detail.chains.length > 0 ? detail.chains : summary.chains,
      mcap: detail.mcapUsd ?? summary.mcapUsd,
      chainTvls: detail.chainTvls.map((c) => ({ chain: c.chain, date: null, tvl: c.tvlUsd })),
      tvlHistory: detail.tvlHistory
        .slice(-PROTOCOL_HISTORY_DAYS)
        .map((point) => ({ chain: null, date: isoSeconds(point.date), tvl: point.tvlUsd })),
    };
  }

  @Query(() => YieldPoolPage, {
    description: 'Yield pools by TVL, largest first (DefiLlama yields; one upstream call per 5 minutes)',
  })
  async defiYields(
    @Arg('limit', () => Int, argumentOptions(defiListLimit)) limit: number,
    @Arg('offset', () => Int, argumentOptions(defiOffset)) offset: number,
    @Arg('chain', () => String, {
      nullable: true,
      description: 'only pools on this chain (name or ID of a supported chain)',
    })
    chain: string | null,
    @Arg('project', () => String, { nullable: true, description: 'only pools of this protocol slug, e.g. aave-v3' })
    project: string | null,
    @Ctx() ctx: GraphContext,
  ): Promise<YieldPoolPage> {
    checkPage(limit, offset);
    const chainKey = parseArgument(poolChainFilter, 'chain', chain);
    const chainName = chainKey === undefined ? null : findChain(chainKey)!.name;
    const projectSlug = parseArgument(poolProjectFilter, 'project', project)?.toLowerCase() ?? null;
    const pools = (await ctx.sources.defi.yields.pools()).filter(
      (p) => (chainName === null || p.chain === chainName) && (projectSlug === null || p.project === projectSlug),
    );
    return paginate(pools, limit, offset);
  }

  @Query(() => DefiPositions, {
    description: "A wallet's positions in DeFi protocols on every chain (DeBank), largest net value first",
  })
  async defiPositions(@Arg('address', () => String) address: string, @Ctx() ctx: GraphContext): Promise<DefiPositions> {
    const checksummed = parseArgument(checksummedAddress, 'address', address);
    const positions = (await ctx.sources.defi.debank.positions(checksummed.toLowerCase())).map(toPosition);
    return {
      address: checksummed,
      totalNetUsd: sumUsd(positions.map((p) => p.netUsd)),
      totalAssetUsd: sumUsd(positions.map((p) => p.assetUsd)),
      totalDebtUsd: sumUsd(positions.map((p) => p.debtUsd)),
      positions,
    };
  }
}
