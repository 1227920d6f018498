import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { ensName } from '../../src/arguments/ens-name.js';
import { parseArgument } from '../../src/arguments/parse-argument.js';
import { subnameLabelArgument } from '../../src/arguments/subname-arguments.js';
import type { GraphContext } from '../shared/graph-context.js';

/** A subname's parent and label parsed with the rules of their REST parameters, before any session is asked for. */
const subnameArguments = (parent: string, label: string) => ({
  parent: parseArgument(ensName, 'parent', parent),
  label: parseArgument(subnameLabelArgument, 'label', label),
});

import { CcipAnswer, CcipHealth, Subname, SubnameRecordsInput } from './types.js';

@Resolver()
export class CcipResolver {
  @Query(() => CcipAnswer, { description: 'Answers an ENS OffchainResolver CCIP-Read request, signed' })
  ccipResolve(
    @Arg('sender', () => String, { description: 'the OffchainResolver that reverted with OffchainLookup' })
    sender: string,
    @Arg('data', () => String, { description: 'its callData: resolve(bytes name, bytes data)' }) data: string,
    @Ctx() ctx: GraphContext,
  ): Promise<CcipAnswer> {
    return ctx.app.ccip.answer({ sender, data });
  }

  @Query(() => CcipHealth, { description: 'The CCIP gateway: record store, record count, signer, served parents' })
  ccipHealth(@Ctx() ctx: GraphContext): Promise<CcipHealth> {
    return ctx.app.ccip.health();
  }

  @Query(() => Subname, {
    nullable: true,
    description: 'A subname registered under a served parent; null when the label is free',
  })
  subname(
    @Arg('parent', () => String) parent: string,
    @Arg('label', () => String) label: string,
    @Ctx() ctx: GraphContext,
  ): Promise<Subname | null> {
    return ctx.app.ccip.subname(subnameArguments(parent, label));
  }

  @Mutation(() => Subname, {
    description: 'Registers label.parent to the signed-in wallet (SIWE session); first come, first served',
  })
  async registerSubname(
    @Arg('parent', () => String) parent: string,
    @Arg('label', () => String) label: string,
    @Arg('records', () => SubnameRecordsInput, { nullable: true }) records: SubnameRecordsInput | null,
    @Ctx() ctx: GraphContext,
  ): Promise<Subname> {
    const names = subnameArguments(parent, label);
    return ctx.app.ccip.register(await ctx.caller(), { ...names, records: records ?? {} });
  }
}
