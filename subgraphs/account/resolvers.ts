import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { apiKeyId, apiKeyName, siweMessage, siweSignature } from '../../src/arguments/account-arguments.js';
import { creditPackageId } from '../../src/arguments/credit-package.js';
import { parseArgument } from '../../src/arguments/parse-argument.js';
import type { GraphContext } from '../shared/graph-context.js';
import {
  ApiKeyList,
  CreateApiKeyResult,
  CreditPricing,
  CreditPurchase,
  RefreshedSession,
  ResultMessage,
  RotateApiKeyResult,
  SessionStatus,
  SiweChallenge,
  SiweSession,
  Usage,
  WalletProfile,
  WalletUsage,
  X402Config,
} from './types.js';

@Resolver()
export class AccountResolver {
  @Query(() => X402Config, { description: 'x402 payment configuration and every priced route' })
  x402Config(@Ctx() ctx: GraphContext): X402Config {
    return ctx.app.x402Config(ctx.publicBaseUrl);
  }

  @Mutation(() => SiweChallenge, {
    description: 'A fresh single-use SIWE nonce (valid 5 minutes) with the domain and URI to sign for',
  })
  siweChallenge(@Ctx() ctx: GraphContext): Promise<SiweChallenge> {
    return ctx.app.account.siweChallenge();
  }

  @Mutation(() => SiweSession, { description: 'Verifies a signed SIWE message and opens a 24-hour session' })
  siweVerify(
    @Arg('message', () => String, { description: 'the full EIP-4361 message' }) message: string,
    @Arg('signature', () => String, { description: '0x-prefixed hex signature' }) signature: string,
    @Ctx() ctx: GraphContext,
  ): Promise<SiweSession> {
    return ctx.app.account.siweVerify({
      message: parseArgument(siweMessage, 'message', message),
      signature: parseArgument(siweSignature, 'signature', signature),
    });
  }

  @Mutation(() => RefreshedSession, { description: "A new token for the caller's session; the old token ends" })
  async refreshSession(@Ctx() ctx: GraphContext): Promise<RefreshedSession> {
    return ctx.app.account.refreshSession(await ctx.caller());
  }

  @Mutation(() => ResultMessage, { description: "Terminates the caller's session on every instance" })
  async logout(@Ctx() ctx: GraphContext): Promise<ResultMessage> {
    return ctx.app.account.logout(await ctx.caller());
  }

  @Query(() => SessionStatus, { description: 'Whether the bearer token is a live session, and its limits' })
  async sessionStatus(@Ctx() ctx: GraphContext): Promise<SessionStatus> {
    return ctx.app.account.sessionStatus(await ctx.caller());
  }

  @Query(() => WalletProfile, { description: 'The signed-in wallet' })
  async me(@Ctx() ctx: GraphContext): Promise<WalletProfile> {
    return ctx.app.account.me(await ctx.caller());
  }

  @Query(() => WalletUsage, { description: "The signed-in wallet's calls today, and its keys'" })
  async myUsage(@Ctx() ctx: GraphContext): Promise<WalletUsage> {
    return ctx.app.account.myUsage(await ctx.caller());
  }

  @Query(() => Usage, { description: "The caller's quota today (anonymous, session or API key); consumes nothing" })
  async usage(@Ctx() ctx: GraphContext): Promise<Usage> {
    return ctx.app.account.usage(await ctx.caller());
  }

  @Mutation(() => CreateApiKeyResult, {
    description: 'Creates an API key for the signed-in wallet; the key is shown once',
  })
  async createApiKey(
    @Arg('name', () => String, { description: 'a label for the key, 1 to 64 characters' }) name: string,
    @Ctx() ctx: GraphContext,
  ): Promise<CreateApiKeyResult> {
    const label = parseArgument(apiKeyName, 'name', name);
    return ctx.app.account.createApiKey(await ctx.caller(), label);
  }

  @Query(() => ApiKeyList, { description: "The signed-in wallet's API keys (prefix, last use, usage today)" })
  async apiKeys(@Ctx() ctx: GraphContext): Promise<ApiKeyList> {
    return ctx.app.account.listApiKeys(await ctx.caller());
  }

  @Mutation(() => RotateApiKeyResult, {
    description: 'New secret for a key, same id and credits; the old secret fails at once',
  })
  async rotateApiKey(@Arg('id', () => String) id: string, @Ctx() ctx: GraphContext): Promise<RotateApiKeyResult> {
    const keyId = parseArgument(apiKeyId, 'id', id);
    return ctx.app.account.rotateApiKey(await ctx.caller(), keyId);
  }

  @Mutation(() => ResultMessage, { description: 'Deletes a key; its credits are destroyed' })
  async deleteApiKey(@Arg('id', () => String) id: string, @Ctx() ctx: GraphContext): Promise<ResultMessage> {
    const keyId = parseArgument(apiKeyId, 'id', id);
    return ctx.app.account.deleteApiKey(await ctx.caller(), keyId);
  }

  @Query(() => CreditPricing, { description: 'The prepaid credit packages' })
  creditPricing(@Ctx() ctx: GraphContext): CreditPricing {
    return ctx.app.account.creditPackages();
  }

  @Mutation(() => CreditPurchase, {
    description: 'Buys a credit package for a key, against a verified x402 payment only',
  })
  async purchaseCredits(
    @Arg('id', () => String, { description: 'API key id' }) id: string,
    @Arg('packageId', () => String) packageId: string,
    @Ctx() ctx: GraphContext,
  ): Promise<CreditPurchase> {
    const keyId = parseArgument(apiKeyId, 'id', id);
    const pkg = parseArgument(creditPackageId, 'packageId', packageId);
    return ctx.app.account.purchaseCredits(await ctx.caller(), {
      id: keyId,
      packageId: pkg,
      payment: ctx.payment,
      resource: ctx.requestUrl,
    });
  }
}
