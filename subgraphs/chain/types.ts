import { Field, Float, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'Service liveness, as GET /api/health answers it' })
export class ServiceHealth {
  @Field(() => String, { description: 'ok; a store that does not answer makes health a 503 SERVICE_UNAVAILABLE' })
  status!: string;
  @Field(() => String) version!: string;
  @Field(() => Int) uptimeSeconds!: number;
  @Field(() => String, { description: 'sqlite or redis' }) store!: string;
  @Field(() => String, {
    description:
      "whether the store keeps its data across a restart: persistent, volatile (Redis with neither AOF nor RDB) or unknown (Redis refuses CONFIG); Redis's is read again on reconnect and every REDIS_DURABILITY_CHECK_MS",
  })
  storeDurability!: string;
  @Field(() => String, { description: 'ISO 8601' }) timestamp!: string;
}

@ObjectType({ description: 'One upstream data source and how it is doing' })
export class SourceStatus {
  @Field(() => String) name!: string;
  @Field(() => String, { description: 'what the source provides, e.g. rpc, prices' }) kind!: string;
  @Field(() => String, { description: 'live (a real upstream) or local (embedded chain or recorded replay)' })
  mode!: string;
  @Field(() => String, {
    nullable: true,
    description:
      "an embedded chain's loopback JSON-RPC URL, to send it transactions (local rpc sources only; never a live URL)",
  })
  rpcUrl?: string;
  @Field(() => String, { description: 'up, degraded or down' }) state!: string;
  @Field(() => Float, { nullable: true }) lastLatencyMs!: number | null;
  @Field(() => String, { nullable: true }) lastCheckedAt!: string | null;
  @Field(() => String, { nullable: true }) lastError!: string | null;
}

@ObjectType({ description: 'One part of the deployment and whether it is the embedded demo or the real thing' })
export class PartStatus {
  @Field(() => String, {
    description: 'ethereum, base, facilitator, receiver, ccip-signer, jwt-secret, upstreams or store',
  })
  part!: string;
  @Field(() => String, { description: 'demo (embedded, or a value nobody configured) or live' }) mode!: string;
  @Field(() => String, { description: 'what serves it (never a URL that may carry a key)' }) detail!: string;
}

@ObjectType({ description: 'GET /api/sources/health' })
export class SourcesHealth {
  @Field(() => String, { description: 'ok when every source is up, else degraded' }) status!: string;
  @Field(() => [PartStatus], { description: 'each part of the deployment, demo or live, as the configuration decided' })
  parts!: PartStatus[];
  @Field(() => [SourceStatus]) sources!: SourceStatus[];
  @Field(() => String) timestamp!: string;
}

@ObjectType({ description: 'Fee suggestion for one speed, in gwei' })
export class GasSpeed {
  @Field(() => String) maxPriorityFeePerGas!: string;
  @Field(() => String) maxFeePerGas!: string;
}

@ObjectType({ description: 'GET /api/gas: EIP-1559 fee suggestions from the chain fee history, in gwei' })
export class GasPrices {
  @Field(() => String) chain!: string;
  @Field(() => Int) chainId!: number;
  @Field(() => String, { description: 'block the suggestion is computed at (decimal string)' }) blockNumber!: string;
  @Field(() => String, { description: 'base fee of the next block, gwei' }) baseFee!: string;
  @Field(() => GasSpeed) slow!: GasSpeed;
  @Field(() => GasSpeed) standard!: GasSpeed;
  @Field(() => GasSpeed) fast!: GasSpeed;
  @Field(() => String) unit!: string;
  @Field(() => String, { description: 'when the chain was read, ISO 8601' }) timestamp!: string;
}

@ObjectType({ description: 'A chain the service answers for' })
export class SupportedChainInfo {
  @Field(() => String) key!: string;
  @Field(() => Int) id!: number;
  @Field(() => String) name!: string;
  @Field(() => Boolean) ens!: boolean;
  @Field(() => Boolean) prices!: boolean;
  @Field(() => Boolean) defi!: boolean;
  @Field(() => Boolean) gas!: boolean;
  @Field(() => String, { description: 'live, local or absent (no RPC configured)' }) rpc!: string;
}
