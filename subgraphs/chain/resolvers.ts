import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import { argumentOptions } from '../../src/arguments/argument-options.js';
import { chainName, chainOrDefault } from '../../src/arguments/chain.js';
import { parseArgument } from '../../src/arguments/parse-argument.js';
import { CHAINS } from '../../src/config/chains.js';
import type { GraphContext } from '../shared/graph-context.js';
import { GasPrices, ServiceHealth, SourcesHealth, SupportedChainInfo } from './types.js';

@Resolver()
export class ChainResolver {
  @Query(() => ServiceHealth, { description: 'Liveness of the service and its store' })
  async health(@Ctx() ctx: GraphContext): Promise<ServiceHealth> {
    return ctx.app.status();
  }

  @Query(() => SourcesHealth, { description: 'Each upstream source: live or local, up, degraded or down' })
  sourcesHealth(@Ctx() ctx: GraphContext): SourcesHealth {
    const sources = ctx.sources.health.list();
    const allUp = sources.every((s) => s.state === 'up');
    return { status: allUp ? 'ok' : 'degraded', parts: ctx.app.parts(), sources, timestamp: new Date().toISOString() };
  }

  @Query(() => GasPrices, { description: 'EIP-1559 fee suggestions (slow, standard, fast) from the fee history' })
  async gasPrices(
    @Arg('chain', () => String, argumentOptions(chainOrDefault)) chain: string,
    @Ctx() ctx: GraphContext,
  ): Promise<GasPrices> {
    return ctx.sources.gas.read(parseArgument(chainName, 'chain', chain));
  }

  @Query(() => [SupportedChainInfo], { description: 'The chains the service answers for' })
  supportedChains(@Ctx() ctx: GraphContext): SupportedChainInfo[] {
    return CHAINS.map((c) => ({ ...c, rpc: ctx.sources.chains[c.key].mode }));
  }
}
