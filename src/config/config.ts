import { resolve } from 'node:path';
import { normalize } from 'viem/ens';
import { z } from 'zod';
import { CHAINS, type ChainKey } from './chains.js';
import { EVM_ADDRESS_PATTERN } from './evm-address-pattern.js';
import { LISTEN_ADDRESS_ENV } from './listen-address.js';
import { type RedisTarget, redisTarget } from './redis-target.js';
import { type TrustProxy, trustProxySetting } from './trust-proxy.js';

/** USDC on Base: the asset x402 payments settle in (docs/api-contract.md#x402-payment). */
export const USDC_ON_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

/** The public x402 facilitator, used when X402_FACILITATOR_URL is not set. */
export const PUBLIC_X402_FACILITATOR = 'https://x402.org/facilitator';

const optionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.url().optional())
  .optional();

const address = z.string().regex(EVM_ADDRESS_PATTERN, 'must be a 0x-prefixed 20-byte hex address');

/** The parent the embedded default serves CCIP subnames under when CCIP_PARENT_NAMES is unset (already normalised). */
export const DEFAULT_CCIP_PARENT_NAMES: readonly string[] = ['offchain.eth'];

/** Comma-separated ENS names in ENSIP-15 normal form, each of two labels or more (`offchain.eth`). */
function ccipParentNames(value: string, ctx: z.RefinementCtx): string[] {
  const names = [
    ...new Set(
      value
        .split(',')
        .map((n) => n.trim())
        .filter((n) => n !== ''),
    ),
  ];
  for (const name of names) {
    let normalised: string | undefined;
    try {
      normalised = normalize(name);
    } catch {
      normalised = undefined;
    }
    if (normalised !== name || name.split('.').length < 2 || name.split('.').includes('')) {
      ctx.addIssue({
        code: 'custom',
        message: `"${name}" is not an ENS name in normalised form with two labels or more`,
      });
    }
  }
  if (names.length === 0) ctx.addIssue({ code: 'custom', message: 'name at least one parent' });
  return names;
}

/** `*`, or comma-separated origins (`https://app.example.com`), each exactly as a browser sends it in `Origin`. */
function corsOrigins(value: string, ctx: z.RefinementCtx): '*' | string[] {
  const origins = [
    ...new Set(
      value
        .split(',')
        .map((o) => o.trim())
        .filter((o) => o !== ''),
    ),
  ];
  if (origins.includes('*')) return '*';
  for (const origin of origins) {
    let parsed: string | undefined;
    try {
      parsed = new URL(origin).origin;
    } catch {
      parsed = undefined;
    }
    if (parsed !== origin)
      ctx.addIssue({ code: 'custom', message: `"${origin}" is not an origin like https://app.example.com` });
  }
  if (origins.length === 0) ctx.addIssue({ code: 'custom', message: 'name at least one origin, or *' });
  return origins;
}

/** Comma-separated host names (`api.example.com`, no scheme or port), lower-cased. */
function mcpAllowedHosts(value: string, ctx: z.RefinementCtx): string[] {
  const hosts = value
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
  for (const host of hosts) {
    if (!/^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/.test(host))
      ctx.addIssue({ code: 'custom', message: `"${host}" is not a host name like api.example.com` });
  }
  return [...new Set(hosts)];
}

const envSchema = z.object({
  ...LISTEN_ADDRESS_ENV,
  DATA_DIR: z.string().default('./data'),
  // One Redis (`redis://…`), or a Redis Cluster (`redis+cluster://host:port,host:port`, src/config/redis-target.ts).
  REDIS_URL: z
    .string()
    .trim()
    .refine((v) => /^rediss?\+cluster:\/\//.test(v) || URL.canParse(v), 'must be a URL')
    .optional(),
  // Seed nodes of a Redis Cluster, comma-separated host:port.
  REDIS_CLUSTER_NODES: z.string().trim().optional(),
  // Start even though Redis keeps nothing across a restart (no AOF, no RDB snapshots): src/store/redis-durability.ts.
  REDIS_VOLATILE_OK: z.enum(['true', 'false']).default('false'),
  // How often Redis's persistence is read again after start (it is also read on every reconnect).
  REDIS_DURABILITY_CHECK_MS: z.coerce.number().int().min(100).max(86_400_000).default(60_000),
  // A write (a count, a debit, a spent nonce) is answered once this many replicas hold it (WAIT); 0: once its master has.
  REDIS_WAIT_REPLICAS: z.coerce.number().int().min(0).max(16).default(0),
  // Every key the store writes starts with it: several deployments (or a test run) can share one Redis.
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_.-]{1,128}$/, 'must be 1 to 128 letters, digits, colons, dots, dashes or underscores')
    .default('cia:'),
  // A store call that has not answered by then is a 503 (SQLite: how long a write waits for a lock held elsewhere).
  STORE_TIMEOUT_MS: z.coerce.number().int().min(10).max(60_000).default(500),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Which proxies are believed about the client address (X-Forwarded-For): true, false, a hop count, or addresses and
  // CIDR ranges (src/config/trust-proxy.ts); the caller is the rightmost address not trusted.
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v, ctx) => trustProxySetting(v, ctx)),
  // Anonymous IPv6 callers are counted per network of this many leading bits: a /64 is what one subscriber gets.
  ANONYMOUS_IPV6_PREFIX: z.coerce.number().int().min(16).max(128).default(64),
  PUBLIC_BASE_URL: optionalUrl,
  // Browser origins allowed to call the API (CORS); `*` without credentials, since callers authenticate with headers.
  CORS_ORIGINS: z
    .string()
    .default('*')
    .transform((v, ctx) => corsOrigins(v, ctx)),
  // Host names /mcp answers besides loopback and PUBLIC_BASE_URL's (DNS-rebinding protection), comma-separated.
  MCP_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((v, ctx) => mcpAllowedHosts(v, ctx)),
  // Connections: how many may be open at once (one more is answered 503 and closed), how long one may sit idle between
  // requests, and how long a client may take to send a request's headers and the whole request.
  MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(4096),
  // Of those, how many one client address (an IPv6 caller's ANONYMOUS_IPV6_PREFIX network) may hold; a trusted proxy's
  // are not capped (it speaks for many clients). A new connection that has sent no byte after FIRST_BYTE_TIMEOUT_MS is
  // closed, so silent sockets do not hold places for the whole headers timeout.
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(256),
  FIRST_BYTE_TIMEOUT_MS: z.coerce.number().int().min(50).max(3_600_000).default(3000),
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  // Bearer token GET /metrics asks for; unset: /metrics is not served.
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  // OpenTelemetry traces: off (no SDK loaded) unless a collector is named; spans go to <endpoint>/v1/traces.
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
  OTEL_EXPORTER_OTLP_HEADERS: z
    .string()
    .default('')
    .transform((v, ctx) => otlpHeaders(v, ctx)),
  OTEL_SERVICE_NAME: z.string().min(1).max(128).default('chain-identity-api'),
  // Whose traceparent / tracestate a request's span continues: `proxies` (peers TRUST_PROXY trusts), `all` or `none`;
  // anyone else's starts a new trace linked to theirs.
  OTEL_TRACE_CONTEXT_FROM: z.enum(['proxies', 'all', 'none']).default('proxies'),
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
  // Farcaster: Neynar v2 (live when NEYNAR_API_KEY or NEYNAR_API_URL is set) and a hub / Snapchain HTTP API
  // (live when FARCASTER_HUB_URL is set); with none of the four set, both are the local replay.
  NEYNAR_API_URL: optionalUrl,
  NEYNAR_API_KEY: z.string().optional(),
  FARCASTER_HUB_URL: optionalUrl,
  FARCASTER_HUB_API_KEY: z.string().optional(),
  // Explorer and NFT upstreams of the wallet and utility routes; unset = local replay.
  // Etherscan API v2 (live when ETHERSCAN_API_KEY or ETHERSCAN_API_URL is set, default https://api.etherscan.io); v2
  // refuses every call without a key, so a URL needs ETHERSCAN_API_KEY or an `apikey` in its query.
  ETHERSCAN_API_URL: optionalUrl,
  ETHERSCAN_API_KEY: z.string().optional(),
  // Sourcify server, e.g. https://sourcify.dev/server (the ABI route's fallback).
  SOURCIFY_API_URL: optionalUrl,
  // Alchemy NFT API v3 (live when set: https://<network>.g.alchemy.com/nft/v3/<key>).
  ALCHEMY_API_KEY: z.string().optional(),
  // DeFi, activity and event upstreams; unset = local replay. DefiLlama's free TVL API (https://api.llama.fi) and
  // yields server (https://yields.llama.fi); its pro API for token unlocks (live when the key is set).
  DEFILLAMA_API_URL: optionalUrl,
  DEFILLAMA_YIELDS_URL: optionalUrl,
  DEFILLAMA_PRO_API_KEY: z.string().optional(),
  // DeBank Cloud OpenAPI for wallet positions (live when DEBANK_ACCESS_KEY is set; default https://pro-openapi.debank.com).
  DEBANK_API_URL: optionalUrl,
  DEBANK_ACCESS_KEY: z.string().optional(),
  // growthepie public API for active addresses per chain (https://api.growthepie.com).
  GROWTHEPIE_API_URL: optionalUrl,
  // ENS subgraph GraphQL endpoint (names by address), e.g. https://gateway.thegraph.com/api/<key>/subgraphs/id/<id>;
  // unset = the embedded chain's registrar events (or 503 with a live ETH_RPC_URL).
  ENS_SUBGRAPH_URL: optionalUrl,
  // Default: anvil's development account #9, so the embedded default can be paid locally.
  X402_RECEIVER: address.default('0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'),
  X402_FACILITATOR_URL: optionalUrl,
  X402_DEFAULT_PRICE_USD: z
    .string()
    .regex(/^\d+(\.\d{1,6})?$/)
    .default('0.01'),
  // GraphQL Armor's defaults (escape.tech/graphql-armor): depth 6, aliases 15, tokens 1000.
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).max(100).default(6),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).max(1000).default(15),
  // The anonymous limits (docs/api-contract.md#limits-by-access-mode); operators (and the benchmark) may raise them.
  ANONYMOUS_DAILY_LIMIT: z.coerce.number().int().min(1).default(100),
  ANONYMOUS_PER_MINUTE_LIMIT: z.coerce.number().int().min(1).default(30),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(10).max(100_000).default(1000),
  // GraphQL Armor's cost formula; 1000 is about 9 × the dearest route's own operation (/api/profile/full, 109).
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  // Sign-in: the JWT signing secret (unset: generated once and kept in the store, shared by every instance),
  // and the domain / URI SIWE messages must name (unset: from PUBLIC_BASE_URL, else the listen address; never a request's Host).
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SIWE_DOMAIN: z
    .string()
    .regex(/^[^\s/?#]+$/, 'must be a host[:port] authority')
    .optional(),
  SIWE_URI: optionalUrl,
  // The session and API key limits (docs/api-contract.md#limits-by-access-mode); keys keep the limits they were created
  // with.
  SIWE_DAILY_LIMIT: z.coerce.number().int().min(1).default(200),
  SIWE_PER_MINUTE_LIMIT: z.coerce.number().int().min(1).default(60),
  API_KEY_DAILY_LIMIT: z.coerce.number().int().min(1).default(250),
  API_KEY_PER_MINUTE_LIMIT: z.coerce.number().int().min(1).default(60),
  API_KEY_CONCURRENCY: z.coerce.number().int().min(1).default(10),
  // CCIP-Read gateway: the key signing answers (unset: generated once and kept in the store), the parent names whose
  // subnames it serves (comma-separated), and how long a signed answer stays valid.
  CCIP_SIGNER_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex private key')
    .optional(),
  // The default is written in normal form and not normalised at start: ENSIP-15's tables take ~0.5 s to build.
  CCIP_PARENT_NAMES: z
    .string()
    .optional()
    .transform((v, ctx) => (v === undefined ? [...DEFAULT_CCIP_PARENT_NAMES] : ccipParentNames(v, ctx))),
  CCIP_ANSWER_TTL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(300),
  // Webhooks: whether http and private / loopback / link-local targets are accepted (unset: only with the embedded
  // chain, i.e. without ETH_RPC_URL), blocks a chain event waits before it is sent (reorg safety; unset: 0 on the
  // embedded chain, 3 live), how often the chain and the outbox are polled, the first retry delay (doubling after),
  // how often the prices and Farcaster sources are polled, and whether blocks are traced for ETH contracts move
  // (auto: when the node answers trace_block or debug_traceBlockByNumber).
  WEBHOOK_ALLOW_LOCAL_URLS: z.enum(['true', 'false']).optional(),
  WEBHOOK_CONFIRMATIONS: z.coerce.number().int().min(0).max(128).optional(),
  WEBHOOK_POLL_MS: z.coerce.number().int().min(20).max(60_000).default(1000),
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(5000),
  WEBHOOK_SOURCE_POLL_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  WEBHOOK_TRACES: z.enum(['auto', 'off']).default('auto'),
});

/** Every environment variable the service reads (docs/configuration.md and .env.example document each). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

/**
 * OTEL_EXPORTER_OTLP_HEADERS as OpenTelemetry writes it: `key=value` pairs, comma-separated, values percent-encoded.
 * @example otlpHeaders('x-honeycomb-team=abc,x-env=prod', ctx) // { 'x-honeycomb-team': 'abc', 'x-env': 'prod' }
 */
function otlpHeaders(value: string, ctx: z.RefinementCtx): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of value.split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    const name = pair.slice(0, at).trim();
    if (at < 1 || !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) {
      ctx.addIssue({ code: 'custom', message: 'must be key=value pairs separated by commas' });
      return z.NEVER;
    }
    try {
      headers[name] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      ctx.addIssue({ code: 'custom', message: `the value of ${name} is not valid percent-encoding` });
      return z.NEVER;
    }
  }
  return headers;
}

/** Variables whose values are secrets (keys, tokens, URLs that may embed keys): never written to a log. */
const SECRET_VARIABLES = [
  'COINGECKO_API_KEY',
  'NEYNAR_API_KEY',
  'FARCASTER_HUB_API_KEY',
  'ETHERSCAN_API_KEY',
  // Etherscan's docs write the key into the URL (`?apikey=`), so an operator may too.
  'ETHERSCAN_API_URL',
  'ALCHEMY_API_KEY',
  'DEFILLAMA_PRO_API_KEY',
  'DEBANK_ACCESS_KEY',
  'JWT_SECRET',
  'CCIP_SIGNER_KEY',
  'METRICS_TOKEN',
  // Collectors take their API key in a header (`x-honeycomb-team=…`, `Authorization=…`).
  'OTEL_EXPORTER_OTLP_HEADERS',
  'REDIS_URL',
  'ETH_RPC_URL',
  'BASE_RPC_URL',
  'ARBITRUM_RPC_URL',
  'OPTIMISM_RPC_URL',
  'POLYGON_RPC_URL',
] as const;

/**
 * The secret values set in this environment (at least 8 characters, so no common word is scrubbed), for the logger
 * to scrub from every line.
 * @example createLogger(config.logLevel, secretValues(process.env))
 */
export function secretValues(env: Record<string, string | undefined>): string[] {
  return SECRET_VARIABLES.map((name) => env[name]?.trim() ?? '').filter((value) => value.length >= 8);
}

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
  /** REDIS_URL / REDIS_CLUSTER_NODES: one Redis or a Redis Cluster; undefined: the SQLite store. */
  redis: RedisTarget | undefined;
  /** REDIS_VOLATILE_OK: start on a Redis that persists nothing. */
  redisVolatileOk: boolean;
  /** REDIS_DURABILITY_CHECK_MS: how often Redis's persistence is read again (and on every reconnect). */
  redisDurabilityCheckMs: number;
  /** REDIS_WAIT_REPLICAS: replicas that must hold a write before it is answered; 0: none. */
  redisWaitReplicas: number;
  /** REDIS_KEY_PREFIX: the start of every key the Redis store writes. */
  redisKeyPrefix: string;
  /** How long one store call may take before the request is answered 503 SERVICE_UNAVAILABLE. */
  storeTimeoutMs: number;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** Which proxies are believed about the client address (TRUST_PROXY). */
  trustProxy: TrustProxy;
  /** Leading bits of an IPv6 address that make one anonymous caller (ANONYMOUS_IPV6_PREFIX). */
  anonymousIpv6Prefix: number;
  /** Absolute base URL callers reach us at; used in x402 `resource` and CCIP gateway URLs. */
  publicBaseUrl: string | undefined;
  /** Origins browsers may call from (CORS_ORIGINS): `*` or a list. */
  corsOrigins: '*' | string[];
  /** Host names /mcp answers (Host and Origin), besides loopback and PUBLIC_BASE_URL's: DNS-rebinding protection. */
  mcpAllowedHosts: string[];
  /** Bearer token of GET /metrics; undefined: /metrics is not served. Never logged. */
  metricsToken: string | undefined;
  /** OpenTelemetry traces (docs/operators.md#traces): no endpoint, no SDK and no spans. */
  otel: {
    /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's OTLP/HTTP base URL. */
    endpoint: string | undefined;
    /** OTEL_EXPORTER_OTLP_HEADERS: headers sent with each export (a collector's API key). Never logged. */
    headers: Record<string, string>;
    /** OTEL_SERVICE_NAME: the `service.name` of every span. */
    serviceName: string;
    /** OTEL_TRACE_CONTEXT_FROM: the peers whose incoming trace context is continued (others get a linked new trace). */
    traceContextFrom: 'proxies' | 'all' | 'none';
  };
  /** What one client connection may hold (README "Running behind a proxy"). */
  connections: {
    /** Open at once; one more is answered 503 SERVICE_UNAVAILABLE and closed. */
    max: number;
    /** Open at once from one client address (not a trusted proxy's); one more is answered as past `max`. */
    maxPerAddress: number;
    /** A new connection that has sent no byte by then is closed, ms. */
    firstByteTimeoutMs: number;
    /** Idle between two requests on a keep-alive connection, ms. */
    keepAliveTimeoutMs: number;
    /** To send a request's headers, ms. */
    headersTimeoutMs: number;
    /** To send a whole request (headers and body), ms. */
    requestTimeoutMs: number;
  };
  chains: Record<ChainKey, ChainEndpoint>;
  upstreamTimeoutMs: number;
  upstreams: {
    coingecko: { url: string | undefined; apiKey: string | undefined };
    defillamaCoins: { url: string | undefined };
    coinbase: { url: string | undefined };
    /** Farcaster: `local` = both replayed; `live` = each configured one live, the other absent. */
    farcaster: {
      mode: 'live' | 'local';
      neynar: { url: string; apiKey: string | undefined } | undefined;
      hub: { url: string; apiKey: string | undefined } | undefined;
    };
    /** Etherscan API v2 origin (live) or undefined (local replay). */
    etherscan: { url: string | undefined; apiKey: string | undefined };
    /** Sourcify server URL (live) or undefined (local replay). */
    sourcify: { url: string | undefined };
    /** Alchemy NFT API key (live) or undefined (local replay). */
    alchemyNft: { apiKey: string | undefined };
    /** DeFi, activity and event upstreams: a URL (or key) means live, undefined the local replay. */
    defi: {
      defillama: { url: string | undefined };
      yields: { url: string | undefined };
      /** DefiLlama pro API key (token unlocks); the key is part of the pro API's URL path. */
      defillamaPro: { apiKey: string | undefined };
      debank: { url: string | undefined; accessKey: string | undefined };
      growthepie: { url: string | undefined };
    };
    /** ENS subgraph GraphQL URL (live) or undefined (names by address from the embedded chain's events). */
    ensSubgraph: { url: string | undefined };
  };
  x402: {
    receiver: `0x${string}`;
    asset: `0x${string}`;
    network: 'base';
    chainId: 8453;
    /**
     * Verifies and settles payments (x402 facilitator API: POST /verify, /settle). Undefined: the embedded local
     * facilitator (settling on an embedded Base chain with test USDC), chosen when neither X402_FACILITATOR_URL nor
     * ETH_RPC_URL is set; with ETH_RPC_URL alone it is the public x402.org facilitator, never the local one.
     */
    facilitatorUrl: string | undefined;
    defaultPriceUsd: string;
  };
  graphql: { maxDepth: number; maxAliases: number; maxTokens: number; maxCost: number };
  anonymousLimits: { daily: number; perMinute: number };
  siweLimits: { daily: number; perMinute: number };
  /** Limits a new API key is created with, and how many of its requests may run at once. */
  apiKeyLimits: { daily: number; perMinute: number; concurrency: number };
  auth: {
    /** Signs session tokens; undefined: one generated once and kept in the store. */
    jwtSecret: string | undefined;
    /** Domain SIWE challenges name; undefined: from PUBLIC_BASE_URL, else the listen address (src/access/siwe-audience.ts). */
    siweDomain: string | undefined;
    /** URI SIWE challenges name; undefined: from PUBLIC_BASE_URL, else the listen address. */
    siweUri: string | undefined;
  };
  /** CCIP-Read gateway (docs/api-contract.md#ccip-gateway) and the subnames it serves. */
  ccip: {
    /** Signs gateway answers; undefined: one generated once and kept in the store. Never logged. */
    signerKey: `0x${string}` | undefined;
    /** Parents whose subnames are registered here and answered by the gateway. */
    parentNames: string[];
    /** Seconds a signed answer stays valid (its `validUntil`). */
    answerTtlSeconds: number;
  };
  /** Webhooks (docs/api-contract.md#events): where they may point, and how events are detected and delivered. */
  webhooks: {
    /** http and private, loopback and link-local targets accepted (development and tests). */
    allowLocalUrls: boolean;
    /** Blocks behind the head a chain event waits for before it is detected (reorg safety). */
    confirmations: number;
    /** How often the chain and the delivery outbox are polled, ms. */
    pollMs: number;
    /** First retry delay, ms; it doubles with each failure (with jitter), up to an hour, for 24 hours. */
    retryBaseMs: number;
    /** How often the prices (price.alert) and Farcaster (farcaster.*) sources are polled, ms. */
    sourcePollMs: number;
    /** Trace blocks for ETH that contracts move (internal transfers) when the node can; false: top-level ETH only. */
    traces: boolean;
  };
}

/** Etherscan's API v2 origin, used when only ETHERSCAN_API_KEY is set. */
export const ETHERSCAN_DEFAULT_URL = 'https://api.etherscan.io';

/** DeBank Cloud OpenAPI origin, used when only DEBANK_ACCESS_KEY is set. */
export const DEBANK_DEFAULT_URL = 'https://pro-openapi.debank.com';

/** Neynar's public API origin, used when only NEYNAR_API_KEY is set. */
export const NEYNAR_DEFAULT_URL = 'https://api.neynar.com';

/** Live Farcaster upstreams as configured; none configured means the local replay of both. */
function farcasterUpstreams(e: z.infer<typeof envSchema>): AppConfig['upstreams']['farcaster'] {
  const neynarLive = e.NEYNAR_API_KEY !== undefined || e.NEYNAR_API_URL !== undefined;
  const hubLive = e.FARCASTER_HUB_URL !== undefined;
  if (!neynarLive && !hubLive) return { mode: 'local', neynar: undefined, hub: undefined };
  return {
    mode: 'live',
    neynar: neynarLive ? { url: e.NEYNAR_API_URL ?? NEYNAR_DEFAULT_URL, apiKey: e.NEYNAR_API_KEY } : undefined,
    hub: hubLive ? { url: e.FARCASTER_HUB_URL!, apiKey: e.FARCASTER_HUB_API_KEY } : undefined,
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Etherscan v2 as configured: the key from ETHERSCAN_API_KEY, else from an `apikey` in ETHERSCAN_API_URL (the form
 * Etherscan's docs show), which is then dropped from the URL; a URL with no key at all is refused at start, since v2
 * answers every keyless call with "Missing/Invalid API Key".
 */
function etherscanUpstream(e: z.infer<typeof envSchema>): AppConfig['upstreams']['etherscan'] {
  if (e.ETHERSCAN_API_URL === undefined) {
    return { url: e.ETHERSCAN_API_KEY === undefined ? undefined : ETHERSCAN_DEFAULT_URL, apiKey: e.ETHERSCAN_API_KEY };
  }
  const url = new URL(e.ETHERSCAN_API_URL);
  const apiKey = e.ETHERSCAN_API_KEY ?? (url.searchParams.get('apikey') || undefined);
  if (apiKey === undefined) {
    throw new ConfigError(
      'invalid configuration:\n  ETHERSCAN_API_URL: Etherscan API v2 refuses every call without a key: set ETHERSCAN_API_KEY',
    );
  }
  url.search = '';
  url.hash = '';
  return { url: url.href.replace(/\/+$/, ''), apiKey };
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
  const redis = redisTarget({ url: e.REDIS_URL, clusterNodes: e.REDIS_CLUSTER_NODES });
  if (redis && 'error' in redis) throw new ConfigError(`invalid configuration:\n  ${redis.error}`);
  if (e.HEADERS_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS) {
    throw new ConfigError(
      'invalid configuration:\n  HEADERS_TIMEOUT_MS: must not be longer than REQUEST_TIMEOUT_MS (the headers are part of the request)',
    );
  }
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
    redis,
    redisVolatileOk: e.REDIS_VOLATILE_OK === 'true',
    redisDurabilityCheckMs: e.REDIS_DURABILITY_CHECK_MS,
    redisWaitReplicas: e.REDIS_WAIT_REPLICAS,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    storeTimeoutMs: e.STORE_TIMEOUT_MS,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    anonymousIpv6Prefix: e.ANONYMOUS_IPV6_PREFIX,
    publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    corsOrigins: e.CORS_ORIGINS,
    mcpAllowedHosts: e.MCP_ALLOWED_HOSTS,
    metricsToken: e.METRICS_TOKEN,
    otel: {
      endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT,
      headers: e.OTEL_EXPORTER_OTLP_HEADERS,
      serviceName: e.OTEL_SERVICE_NAME,
      traceContextFrom: e.OTEL_TRACE_CONTEXT_FROM,
    },
    connections: {
      max: e.MAX_CONNECTIONS,
      maxPerAddress: e.MAX_CONNECTIONS_PER_ADDRESS,
      // The first byte is part of the headers: a shorter headers timeout bounds it too.
      firstByteTimeoutMs: Math.min(e.FIRST_BYTE_TIMEOUT_MS, e.HEADERS_TIMEOUT_MS),
      keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
      headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    },
    chains,
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    upstreams: {
      coingecko: { url: e.COINGECKO_API_URL, apiKey: e.COINGECKO_API_KEY },
      defillamaCoins: { url: e.DEFILLAMA_COINS_URL },
      coinbase: { url: e.COINBASE_API_URL },
      farcaster: farcasterUpstreams(e),
      etherscan: etherscanUpstream(e),
      sourcify: { url: e.SOURCIFY_API_URL },
      alchemyNft: { apiKey: e.ALCHEMY_API_KEY },
      defi: {
        defillama: { url: e.DEFILLAMA_API_URL },
        yields: { url: e.DEFILLAMA_YIELDS_URL },
        defillamaPro: { apiKey: e.DEFILLAMA_PRO_API_KEY },
        debank: {
          url: e.DEBANK_API_URL ?? (e.DEBANK_ACCESS_KEY === undefined ? undefined : DEBANK_DEFAULT_URL),
          accessKey: e.DEBANK_ACCESS_KEY,
        },
        growthepie: { url: e.GROWTHEPIE_API_URL },
      },
      ensSubgraph: { url: e.ENS_SUBGRAPH_URL },
    },
    x402: {
      receiver: e.X402_RECEIVER as `0x${string}`,
      asset: USDC_ON_BASE,
      network: 'base',
      chainId: 8453,
      facilitatorUrl: e.X402_FACILITATOR_URL ?? (e.ETH_RPC_URL === undefined ? undefined : PUBLIC_X402_FACILITATOR),
      defaultPriceUsd: e.X402_DEFAULT_PRICE_USD,
    },
    anonymousLimits: { daily: e.ANONYMOUS_DAILY_LIMIT, perMinute: e.ANONYMOUS_PER_MINUTE_LIMIT },
    siweLimits: { daily: e.SIWE_DAILY_LIMIT, perMinute: e.SIWE_PER_MINUTE_LIMIT },
    apiKeyLimits: {
      daily: e.API_KEY_DAILY_LIMIT,
      perMinute: e.API_KEY_PER_MINUTE_LIMIT,
      concurrency: e.API_KEY_CONCURRENCY,
    },
    auth: { jwtSecret: e.JWT_SECRET, siweDomain: e.SIWE_DOMAIN, siweUri: e.SIWE_URI },
    ccip: {
      signerKey: e.CCIP_SIGNER_KEY as `0x${string}` | undefined,
      parentNames: e.CCIP_PARENT_NAMES,
      answerTtlSeconds: e.CCIP_ANSWER_TTL_SECONDS,
    },
    webhooks: {
      allowLocalUrls: (e.WEBHOOK_ALLOW_LOCAL_URLS ?? (e.ETH_RPC_URL === undefined ? 'true' : 'false')) === 'true',
      confirmations: e.WEBHOOK_CONFIRMATIONS ?? (e.ETH_RPC_URL === undefined ? 0 : 3),
      pollMs: e.WEBHOOK_POLL_MS,
      retryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
      sourcePollMs: e.WEBHOOK_SOURCE_POLL_MS,
      traces: e.WEBHOOK_TRACES === 'auto',
    },
    graphql: {
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxAliases: e.GRAPHQL_MAX_ALIASES,
      maxTokens: e.GRAPHQL_MAX_TOKENS,
      maxCost: e.GRAPHQL_MAX_COST,
    },
  };
}
