import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphContext } from '../shared/graph-context.js';
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
    return ctx.app.ccip.answer({ sender, data, askedAt: ctx.askedAt });
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
    return ctx.app.ccip.subname({ parent, label });
  }

  @Mutation(() => Subname, {
    description: 'Registers label.parent to the signed-in wallet (SIWE session); first come, first served',
  })
  registerSubname(
    @Arg('parent', () => String) parent: string,
    @Arg('label', () => String) label: string,
    @Arg('records', () => SubnameRecordsInput, { nullable: true }) records: SubnameRecordsInput | null,
    @Ctx() ctx: GraphContext,
  ): Promise<Subname> {
    return ctx.app.ccip.register(() => ctx.caller(), { parent, label, records: records ?? {} });
  }
}
