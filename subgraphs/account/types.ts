import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'One priced route as an x402 payment requirement' })
export class X402Accept {
  @Field(() => String) scheme!: string;
  @Field(() => String) network!: string;
  @Field(() => String, { description: 'HTTP method of the route' }) method!: string;
  @Field(() => String, { description: 'the documented path, parameters in braces' }) path!: string;
  @Field(() => String, { description: 'absolute URL of the route' }) resource!: string;
  @Field(() => String) description!: string;
  @Field(() => String) mimeType!: string;
  @Field(() => String, { description: 'price in USD (dollars)' }) priceUSD!: string;
  @Field(() => String, { description: 'price in USDC base units (6 decimals)' }) maxAmountRequired!: string;
  @Field(() => String) payTo!: string;
  @Field(() => String) asset!: string;
  @Field(() => Int) maxTimeoutSeconds!: number;
}

@ObjectType({ description: 'GET /.well-known/x402: how to pay per request' })
export class X402Config {
  @Field(() => Int) x402Version!: number;
  @Field(() => String, { description: 'x402 network name' }) network!: string;
  @Field(() => Int) chainId!: number;
  @Field(() => String, { description: 'USDC contract on Base' }) asset!: string;
  @Field(() => String) assetSymbol!: string;
  @Field(() => String, { description: 'address payments go to' }) receiver!: string;
  @Field(() => String, { description: 'facilitator URL that verifies and settles payments' }) facilitator!: string;
  @Field(() => [X402Accept]) accepts!: X402Accept[];
}
