import type { AccessConfig } from './access-settings.js';
import type { CcipConfig } from './ccip-settings.js';
import type { ChainConfig } from './chain-settings.js';
import { CHAIN_RPC_VARIABLE } from './chain-settings.js';
import { CHAINS } from './chains.js';
import type { DeploymentConfig } from './deployment-settings.js';
import { DEMO_X402_RECEIVER } from './public-dev-keys.js';
import { describeRedisTarget } from './redis-target.js';
import type { StoreConfig } from './store-settings.js';
import type { UpstreamConfig } from './upstream-settings.js';
import type { X402Config } from './x402-settings.js';

/** The parts of a deployment that are each either the embedded demo or the real thing. */
export const PART_NAMES = [
  'ethereum',
  'base',
  'facilitator',
  'receiver',
  'ccip-signer',
  'jwt-secret',
  'upstreams',
  'store',
] as const;
export type PartName = (typeof PART_NAMES)[number];
export type PartMode = 'demo' | 'live';

/** One part as the start banner, /api/sources/health and the `part_mode` metric report it. */
export interface PartState {
  part: PartName;
  mode: PartMode;
  /** What serves it, secret-free (never an RPC URL, which may carry a key). */
  detail: string;
}

/** The parts of the configuration the modes are decided from (AppConfig holds them all). */
export type ConfigBeforeParts = DeploymentConfig &
  StoreConfig &
  ChainConfig &
  X402Config &
  CcipConfig &
  AccessConfig &
  UpstreamConfig;

/** How one part is decided and what going live with it takes (the going-live checklist is made from these). */
export interface PartRule {
  part: PartName;
  /** Its name for people: 'Ethereum chain'. */
  label: string;
  /** The variables that make it live. */
  variables: readonly string[];
  /** What going live with it takes, in markdown (docs/operators.md#going-live). */
  goingLive: string;
  mode(c: ConfigBeforeParts): PartMode;
  detail(c: ConfigBeforeParts, mode: PartMode): string;
}

const UPSTREAM_COUNT = 12;

/** The upstream APIs that answer from the local replay while their variable is unset. */
function replayedUpstreams(c: ConfigBeforeParts): string[] {
  const u = c.upstreams;
  const urls: Record<string, string | undefined> = {
    coingecko: u.coingecko.url,
    'defillama-coins': u.defillamaCoins.url,
    coinbase: u.coinbase.url,
    farcaster: u.farcaster.mode === 'live' ? 'live' : undefined,
    etherscan: u.etherscan.url,
    sourcify: u.sourcify.url,
    alchemy: u.alchemyNft.apiKey,
    defillama: u.defi.defillama.url,
    'defillama-yields': u.defi.yields.url,
    'defillama-pro': u.defi.defillamaPro.apiKey,
    debank: u.defi.debank.url,
    growthepie: u.defi.growthepie.url,
  };
  return Object.entries(urls)
    .filter(([, url]) => url === undefined)
    .map(([name]) => name);
}

/** The one table that decides which part is demo and which live. */
export const PART_RULES: readonly PartRule[] = [
  {
    part: 'ethereum',
    label: 'Ethereum chain',
    variables: ['ETH_RPC_URL'],
    goingLive: 'set `ETH_RPC_URL` to your Ethereum JSON-RPC endpoint; nothing embedded starts for Ethereum then',
    mode: (c) => (c.chains.ethereum.rpcUrl === undefined ? 'demo' : 'live'),
    detail: (_c, mode) => (mode === 'live' ? 'ETH_RPC_URL' : 'embedded anvil, chain id 1'),
  },
  {
    part: 'base',
    label: 'Base chain',
    variables: ['BASE_RPC_URL'],
    goingLive: 'set `BASE_RPC_URL` to your Base JSON-RPC endpoint (Basenames, Base balances)',
    mode: (c) => (c.chains.base.rpcUrl === undefined ? 'demo' : 'live'),
    detail: (_c, mode) => (mode === 'live' ? 'BASE_RPC_URL' : 'embedded anvil, chain id 8453, test USDC'),
  },
  {
    part: 'facilitator',
    label: 'x402 facilitator',
    variables: ['X402_FACILITATOR_URL'],
    goingLive:
      "set `X402_FACILITATOR_URL` to the facilitator that verifies and settles on Base (with `ETH_RPC_URL` set and this unset, `https://x402.org/facilitator`); the embedded one is refused in a live configuration, since anvil's public accounts hold its test USDC, unless `X402_STAGING_EMBEDDED_FACILITATOR=true` on a staging server",
    mode: (c) => (c.x402.facilitatorUrl === undefined ? 'demo' : 'live'),
    detail: (c, mode) =>
      mode === 'live' ? new URL(c.x402.facilitatorUrl!).origin : 'embedded, settles on the embedded Base chain',
  },
  {
    part: 'receiver',
    label: 'x402 receiver',
    variables: ['X402_RECEIVER'],
    goingLive:
      "set `X402_RECEIVER` to an address you hold the key of: every offer names it as `payTo`; anvil's public development accounts are refused in every configuration",
    mode: (c) => (c.x402.receiver === DEMO_X402_RECEIVER ? 'demo' : 'live'),
    detail: (c, mode) => (mode === 'live' ? c.x402.receiver : `${c.x402.receiver}, whose key nobody holds`),
  },
  {
    part: 'ccip-signer',
    label: 'CCIP signer',
    variables: ['CCIP_SIGNER_KEY'],
    goingLive:
      'set `CCIP_SIGNER_KEY` to a private key of your own (`0x` + 64 hex) and name its address as a signer of your OffchainResolver; a key generated into the store is refused in a live configuration',
    mode: (c) => (c.ccip.signerKey === undefined ? 'demo' : 'live'),
    detail: (_c, mode) => (mode === 'live' ? 'CCIP_SIGNER_KEY' : 'generated, kept in the store'),
  },
  {
    part: 'jwt-secret',
    label: 'SIWE/JWT secret',
    variables: ['JWT_SECRET'],
    goingLive:
      'set `JWT_SECRET` to 32 or more random characters, the same on every instance; a secret generated into the store is refused in a live configuration',
    mode: (c) => (c.auth.jwtSecret === undefined ? 'demo' : 'live'),
    detail: (_c, mode) => (mode === 'live' ? 'JWT_SECRET' : 'generated, kept in the store'),
  },
  {
    part: 'upstreams',
    label: 'upstream APIs',
    variables: ['COINGECKO_API_URL', 'NEYNAR_API_KEY', '…'],
    goingLive:
      'set the URL or key of each upstream API you serve ([configuration](configuration.md)) and check them with `npm run sources:check`; one left unset answers from recorded replies',
    mode: (c) => (replayedUpstreams(c).length === 0 ? 'live' : 'demo'),
    detail: (c) => {
      const replayed = replayedUpstreams(c);
      if (replayed.length === 0) return 'every upstream live';
      return replayed.length === UPSTREAM_COUNT ? 'every upstream replayed' : `replayed: ${replayed.join(', ')}`;
    },
  },
  {
    part: 'store',
    label: 'store',
    variables: ['REDIS_URL'],
    goingLive:
      'one instance may keep the embedded SQLite store under `DATA_DIR` (durable); several share one Redis through `REDIS_URL`, which must persist ([Redis persistence](#redis-persistence))',
    mode: (c) => (c.redis === undefined ? 'demo' : 'live'),
    detail: (c, mode) =>
      mode === 'live' ? describeRedisTarget(c.redis!) : 'embedded SQLite under DATA_DIR, one instance',
  },
];

/**
 * Each part's mode, decided once from the configuration (loadConfig calls it; everything else reads `config.parts`).
 * @example partModes(config).find((p) => p.part === 'facilitator')?.mode // 'demo'
 */
export function partModes(c: ConfigBeforeParts): PartState[] {
  return PART_RULES.map((rule) => {
    const mode = rule.mode(c);
    return { part: rule.part, mode, detail: rule.detail(c, mode) };
  });
}

/**
 * What makes this configuration live, as the variables that say so: a live chain (any of the five) or facilitator,
 * or NODE_ENV=production. Empty: the embedded default, where demo values are fine.
 * @example liveBecause(loadConfig({ ETH_RPC_URL: 'https://…' })) // ['ETH_RPC_URL']
 */
export function liveBecause(c: ConfigBeforeParts): string[] {
  const chains = CHAINS.filter((chain) => c.chains[chain.key].rpcUrl !== undefined).map(
    (chain) => CHAIN_RPC_VARIABLE[chain.key],
  );
  // With ETH_RPC_URL the public facilitator is the default: ETH_RPC_URL already says why.
  const facilitator =
    c.x402.facilitatorUrl !== undefined && c.chains.ethereum.rpcUrl === undefined ? ['X402_FACILITATOR_URL'] : [];
  return [...(c.production ? ['NODE_ENV=production'] : []), ...chains, ...facilitator];
}
