import { Ctx, Query, Resolver } from 'type-graphql';
import type { GraphContext } from '../shared/graph-context.js';
import { X402Config } from './types.js';

@Resolver()
export class AccountResolver {
  @Query(() => X402Config, { description: 'x402 payment configuration and every priced route' })
  x402Config(@Ctx() ctx: GraphContext): X402Config {
    return ctx.app.x402Config(ctx.publicBaseUrl);
  }
}
