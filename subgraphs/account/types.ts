import { GraphQLJSONObject } from 'graphql-scalars';
import { Extensions, Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: "The asset's EIP-712 domain, which EIP-3009 authorizations are signed under" })
export class X402AssetDomain {
  @Field(() => String, { description: 'EIP-712 domain name ("USD Coin")' }) name!: string;
  @Field(() => String, { description: 'EIP-712 domain version ("2")' }) version!: string;
}

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
  @Field(() => X402AssetDomain) extra!: X402AssetDomain;
  @Field(() => String, { description: 'name of the service on x402 bazaar listings' }) serviceName!: string;
  @Field(() => [String], { description: 'bazaar listing tags (the route area)' }) tags!: string[];
  @Field(() => GraphQLJSONObject, {
    description: 'x402 v1 discovery: input (method, parameters, body) and output example',
  })
  outputSchema!: Record<string, unknown>;
  @Field(() => GraphQLJSONObject, {
    description: 'x402 extensions offered with the 402: `bazaar` (info and its JSON Schema)',
  })
  extensions!: Record<string, unknown>;
}

@ObjectType({ description: 'One priced MCP tool (POST /mcp) as an x402 v2 payment requirement' })
export class X402ToolOffer {
  @Field(() => String, { description: 'MCP tool name' }) toolName!: string;
  @Field(() => String, { description: 'x402 resource URL of the tool, mcp://tool/<name>' }) resource!: string;
  @Field(() => String) description!: string;
  @Field(() => String, { description: 'price in USD (dollars)' }) priceUSD!: string;
  @Field(() => String, { description: 'x402 v2 exact scheme' }) scheme!: string;
  @Field(() => String, { description: 'CAIP-2 network (eip155:8453)' }) network!: string;
  @Field(() => String, { description: 'price in USDC base units (6 decimals)' }) amount!: string;
  @Field(() => String) payTo!: string;
  @Field(() => String) asset!: string;
  @Field(() => Int) maxTimeoutSeconds!: number;
  @Field(() => X402AssetDomain) extra!: X402AssetDomain;
  @Field(() => String, { description: 'name of the service on x402 bazaar listings' }) serviceName!: string;
  @Field(() => [String], { description: 'bazaar listing tags (the tool area)' }) tags!: string[];
  @Field(() => GraphQLJSONObject, {
    description: 'x402 extensions offered with the 402: `bazaar` (info and its JSON Schema)',
  })
  extensions!: Record<string, unknown>;
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
  @Field(() => [X402ToolOffer], { description: 'the priced MCP tools of POST /mcp, paid per call over MCP' })
  tools!: X402ToolOffer[];
}

@ObjectType({ description: 'GET /api/auth/siwe/challenge: what to put in the SIWE (EIP-4361) message' })
export class SiweChallenge {
  @Field(() => String, { description: 'single-use challenge string, valid 5 minutes' }) nonce!: string;
  @Field(() => String, { description: 'creation time, ISO 8601' }) issuedAt!: string;
  @Field(() => String, { description: 'expiry, 5 minutes after issuedAt, ISO 8601' })
  @Extensions({ jsonSchema: { format: 'date-time' } })
  expiresAt!: string;
  @Field(() => String, { description: 'domain to put in the message' }) domain!: string;
  @Field(() => String, { description: 'URI to put in the message' }) uri!: string;
  @Field(() => String, { description: 'SIWE version' }) version!: string;
  @Field(() => Int, { description: 'chain ID to put in the message' }) chainId!: number;
}

@ObjectType({ description: 'A session opened by a verified SIWE message' })
export class SiweSession {
  @Field(() => Boolean) success!: boolean;
  @Field(() => String, { description: 'JWT; send as Authorization: Bearer <token>' }) token!: string;
  @Field(() => String, { description: 'wallet address, EIP-55' }) address!: string;
  @Field(() => String, { description: 'ISO 8601; 24 hours after sign-in' })
  @Extensions({ jsonSchema: { format: 'date-time' } })
  expiresAt!: string;
}

@ObjectType({ description: 'A new token for the same session, without a new signature' })
export class RefreshedSession {
  @Field(() => Boolean) success!: boolean;
  @Field(() => String) token!: string;
  @Field(() => String, { description: 'ISO 8601' }) expiresAt!: string;
}

@ObjectType({ description: 'Outcome of an action, in words' })
export class ResultMessage {
  @Field(() => Boolean) success!: boolean;
  @Field(() => String) message!: string;
}

@ObjectType({ description: 'Daily and per-minute request limits' })
export class RateLimits {
  @Field(() => Int) daily!: number;
  @Field(() => Int) perMinute!: number;
}

@ObjectType({ description: 'GET /api/auth/session: whether the bearer token is a live session' })
export class SessionStatus {
  @Field(() => Boolean) authenticated!: boolean;
  @Field(() => String, { nullable: true }) address!: string | null;
  @Field(() => String, { nullable: true, description: 'ISO 8601' }) expiresAt!: string | null;
  @Field(() => Int, { nullable: true, description: 'seconds until the session expires' }) expiresIn!: number | null;
  @Field(() => String, { description: 'access mode: siwe, anonymous or api_key' }) tier!: string;
  @Field(() => RateLimits) limits!: RateLimits;
}

@ObjectType({ description: 'GET /api/me: the signed-in wallet' })
export class WalletProfile {
  @Field(() => String) address!: string;
  @Field(() => String, { nullable: true, description: 'first sign-in, ISO 8601' }) firstSeenAt!: string | null;
  @Field(() => String, { nullable: true, description: 'latest sign-in, ISO 8601' }) lastSeenAt!: string | null;
  @Field(() => String, { description: 'ISO 8601' }) sessionExpiresAt!: string;
  @Field(() => Int) apiKeyCount!: number;
  @Field(() => String) tier!: string;
  @Field(() => RateLimits) limits!: RateLimits;
}

@ObjectType({ description: "One of the wallet's API keys, today" })
export class KeyUsage {
  @Field(() => String) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String) prefix!: string;
  @Field(() => Int) usageToday!: number;
  @Field(() => Int) creditsUsedToday!: number;
  @Field(() => Int) credits!: number;
}

@ObjectType({ description: "GET /api/me/usage: the wallet's calls today and its keys'" })
export class WalletUsage {
  @Field(() => String) address!: string;
  @Field(() => String) tier!: string;
  @Field(() => Int) used!: number;
  @Field(() => Int) limit!: number;
  @Field(() => Int) remaining!: number;
  @Field(() => Int) perMinuteLimit!: number;
  @Field(() => String, { description: 'next midnight UTC, ISO 8601' }) resetsAt!: string;
  @Field(() => [KeyUsage]) apiKeys!: KeyUsage[];
}

@ObjectType({ description: "An API key's prepaid balance" })
export class CreditBalance {
  @Field(() => Int) balance!: number;
  @Field(() => Int, { description: 'credits spent today (calls past the daily limit)' }) usedToday!: number;
}

@ObjectType({ description: "GET /api/usage: the caller's quota today; reading it consumes nothing" })
export class Usage {
  @Field(() => Int) used!: number;
  @Field(() => Int) limit!: number;
  @Field(() => Int) remaining!: number;
  @Field(() => CreditBalance, { nullable: true, description: 'present for API keys' }) credits!: CreditBalance | null;
  @Field(() => String, { description: 'anonymous, siwe or api_key' }) tier!: string;
  @Field(() => String, { description: 'next midnight UTC, ISO 8601' }) resetsAt!: string;
}

@ObjectType({ description: 'A new API key; the full key is shown only here' })
export class CreatedApiKey {
  @Field(() => String, { description: 'stable across rotation' }) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { description: 'the full secret, shown once' }) key!: string;
  @Field(() => String, { description: 'ISO 8601' }) createdAt!: string;
  @Field(() => Int) credits!: number;
  @Field(() => Int) dailyLimit!: number;
  @Field(() => Int) minuteLimit!: number;
}

@ObjectType({ description: 'POST /api/user/keys' })
export class CreateApiKeyResult {
  @Field(() => Boolean) success!: boolean;
  @Field(() => CreatedApiKey) key!: CreatedApiKey;
}

@ObjectType({ description: 'An API key as listed: its prefix only, never the secret' })
export class ListedApiKey {
  @Field(() => String) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { description: 'start of the key followed by an ellipsis' }) prefix!: string;
  @Field(() => String, { description: 'ISO 8601' }) createdAt!: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601; null before first use' }) lastUsedAt!: string | null;
  @Field(() => Int) credits!: number;
  @Field(() => Int, { description: 'calls counted today' }) usageToday!: number;
  @Field(() => Int) dailyLimit!: number;
  @Field(() => Int) minuteLimit!: number;
}

@ObjectType({ description: 'GET /api/user/keys' })
export class ApiKeyList {
  @Field(() => [ListedApiKey]) keys!: ListedApiKey[];
}

@ObjectType({ description: 'A rotated key: same id and credits, new secret (shown once)' })
export class RotatedApiKey {
  @Field(() => String) id!: string;
  @Field(() => String) key!: string;
  @Field(() => String) note!: string;
}

@ObjectType({ description: 'POST /api/user/keys/{id}/rotate' })
export class RotateApiKeyResult {
  @Field(() => Boolean) success!: boolean;
  @Field(() => RotatedApiKey) key!: RotatedApiKey;
}

@ObjectType({ description: 'A prepaid credit package' })
export class CreditPackage {
  @Field(() => String) id!: string;
  @Field(() => Int) credits!: number;
  @Field(() => String, { description: 'dollars, e.g. $0.90' }) price!: string;
  @Field(() => String, { description: 'dollars per call' }) perCall!: string;
}

@ObjectType({ description: 'GET /api/user/credits/pricing' })
export class CreditPricing {
  @Field(() => [CreditPackage]) packages!: CreditPackage[];
}

@ObjectType({ description: 'Credits added to a key against a verified payment' })
export class CreditPurchase {
  @Field(() => Boolean) success!: boolean;
  @Field(() => String) keyId!: string;
  @Field(() => String) packageId!: string;
  @Field(() => Int) creditsAdded!: number;
  @Field(() => Int) balance!: number;
  @Field(() => String, { description: "the x402 payment's settlement transaction hash" }) transaction!: string;
}
