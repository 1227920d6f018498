import { resolve } from 'node:path';
import { z } from 'zod';
import { CHAINS, type ChainKey } from './chains.js';

/** USDC on Base: the asset x402 payments settle in (SPEC: x402 payment). */
export const USDC_ON_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

/** The public x402 facilitator, used when X402_FACILITATOR_URL is not set. */
export const PUBLIC_X402_FACILITATOR = 'https://x402.org/facilitator';

const optionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.url().optional())
  .optional();

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  REDIS_URL: optionalUrl,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  PUBLIC_BASE_URL: optionalUrl,
  ETH_RPC_URL: optionalUrl,
  BASE_RPC_URL: optionalUrl,
  ARBITRUM_RPC_URL: optionalUrl,
  OPTIMISM_RPC_URL: optionalUrl,
  POLYGON_RPC_URL: optionalUrl,
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  COINGECKO_API_URL: optionalUrl,
  COINGECKO_API_KEY: z.string().optional(),
  // Origins of the price upstreams (https://coins.llama.fi, https://api.coinbase.com); unset = local replay.
  DEFILLAMA_COINS_URL: optionalUrl,
  COINBASE_API_URL: optionalUrl,
  // Default: anvil's development account #9, so the embedded default can be paid locally.
  X402_RECEIVER: address.default('0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'),
  X402_FACILITATOR_URL: optionalUrl,
  X402_DEFAULT_PRICE_USD: z.string().regex(/^\d+(\.\d{1,6})?$/).default('0.01'),
  // GraphQL Armor's defaults (escape.tech/graphql-armor): depth 6, aliases 15, tokens 1000.
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).max(100).default(6),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).max(1000).default(15),
  // SPEC's anonymous limits; operators (and the benchmark) may raise them.
  ANONYMOUS_DAILY_LIMIT: z.coerce.number().int().min(1).default(100),
  ANONYMOUS_PER_MINUTE_LIMIT: z.coerce.number().int().min(1).default(30),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(10).max(100_000).default(1000),
});

export interface ChainEndpoint {
  key: ChainKey;
  id: number;
  name: string;
  /** A live JSON-RPC URL, or undefined where the embedded local chain serves (Ethereum only). */
  rpcUrl: string | undefined;
}

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  redisUrl: string | undefined;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  trustProxy: boolean;
  /** Absolute base URL callers reach us at; used in x402 `resource` and CCIP gateway URLs. */
  publicBaseUrl: string | undefined;
  chains: Record<ChainKey, ChainEndpoint>;
  upstreamTimeoutMs: number;
  upstreams: {
    coingecko: { url: string | undefined; apiKey: string | undefined };
    defillamaCoins: { url: string | undefined };
    coinbase: { url: string | undefined };
  };
  x402: {
    receiver: `0x${string}`;
    asset: `0x${string}`;
    network: 'base';
    chainId: 8453;
    /** Verifies and settles payments (x402 facilitator API: POST /verify, /settle). */
    facilitatorUrl: string;
    defaultPriceUsd: string;
  };
  graphql: { maxDepth: number; maxAliases: number; maxTokens: number };
  anonymousLimits: { daily: number; perMinute: number };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads and validates the environment once; the rest of the code receives the result.
 * @example const config = loadConfig(process.env)
 */
export function loadConfig(env: Record<string, string | undefined>): AppConfig {
  // An empty value (`FOO=` in an env file) means unset, as in .env.example.
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''));
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const rpc: Record<ChainKey, string | undefined> = {
    ethereum: e.ETH_RPC_URL,
    base: e.BASE_RPC_URL,
    arbitrum: e.ARBITRUM_RPC_URL,
    optimism: e.OPTIMISM_RPC_URL,
    polygon: e.POLYGON_RPC_URL,
  };
  const chains = Object.fromEntries(
    CHAINS.map((c) => [c.key, { key: c.key, id: c.id, name: c.name, rpcUrl: rpc[c.key] }]),
  ) as Record<ChainKey, ChainEndpoint>;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    redisUrl: e.REDIS_URL,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    chains,
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    upstreams: {
      coingecko: { url: e.COINGECKO_API_URL, apiKey: e.COINGECKO_API_KEY },
      defillamaCoins: { url: e.DEFILLAMA_COINS_URL },
      coinbase: { url: e.COINBASE_API_URL },
    },
    x402: {
      receiver: e.X402_RECEIVER as `0x${string}`,
      asset: USDC_ON_BASE,
      network: 'base',
      chainId: 8453,
      facilitatorUrl: e.X402_FACILITATOR_URL ?? PUBLIC_X402_FACILITATOR,
      defaultPriceUsd: e.X402_DEFAULT_PRICE_USD,
    },
    anonymousLimits: { daily: e.ANONYMOUS_DAILY_LIMIT, perMinute: e.ANONYMOUS_PER_MINUTE_LIMIT },
    graphql: { maxDepth: e.GRAPHQL_MAX_DEPTH, maxAliases: e.GRAPHQL_MAX_ALIASES, maxTokens: e.GRAPHQL_MAX_TOKENS },
  };
}
