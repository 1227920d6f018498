import type { Address } from 'viem';
import type { ChainKey } from '../config/chains.js';
import type { AppConfig } from '../config/config.js';
import { defaultRecordingsDir, type ReplayServer, startReplayServer } from '../embedded/replay/replay-server.js';
import { createDefiSourcesFromConfig, defiSourcesNeedReplay } from '../sources/defi/defi-sources.js';
import { createEnsSources, localEnsContracts } from '../sources/ens/ens-sources.js';
import type { RecordKeysIndex } from '../sources/ens/indexed-record-keys.js';
import { createFarcasterSources } from '../sources/farcaster/farcaster-sources.js';
import { createGasPriceSource } from '../sources/gas-price-source.js';
import { createPriceSources, type PriceUpstream } from '../sources/prices/price-sources.js';
import { createChainClients } from '../sources/rpc/chain-clients.js';
import { createRpcSourceClients } from '../sources/rpc/rpc-source-clients.js';
import { SourceHealthRegistry } from '../sources/source-health.js';
import type { Sources } from '../sources/sources.js';
import type { TokenListEntry } from '../sources/wallet/token-lists.js';
import { createWalletSources, walletSourcesNeedReplay } from '../sources/wallet/wallet-sources.js';

export interface CreatedSources {
  sources: Sources;
  /** The local replay of recorded upstream replies, when any source runs in local mode. */
  replay: ReplayServer | undefined;
  close(): Promise<void>;
}

/** Parameters of {@link createSources}: the config, and what the embedded chains started with. */
export interface CreateSourcesParams {
  config: AppConfig;
  localRpcUrl: string | undefined;
  /** The embedded Base chain (the local x402 facilitator's), when it runs: the `base` chain when BASE_RPC_URL is unset. */
  localBaseRpcUrl?: string | undefined;
  /** What the embedded Base chain's seed deployed (its Base names contracts among them). */
  localBaseDeployments?: ReadonlyMap<string, Address> | undefined;
  /** Where recorded replies live; default recordings/ of this checkout. */
  recordingsDir?: string;
  /** Called once per JSON-RPC method sent to a chain (createChainClients' onRequest). */
  onRpcRequest?: ((chain: ChainKey, method: string, params?: unknown) => void) | undefined;
  /** ERC-20s deployed on the embedded chain: the wallet routes list these on the chains it serves. */
  localTokens?: readonly TokenListEntry[];
  /** Contract addresses the embedded chain's seed recorded (its ENS contracts among them). */
  localDeployments?: ReadonlyMap<string, Address>;
  /** The store's ENS record index, which the chain detector keeps (the records list reads it). */
  recordKeysIndex?: RecordKeysIndex | undefined;
}

/** Started only when some source has no live URL configured; ephemeral port, so instances never collide. */
async function startReplayIfNeeded(
  config: AppConfig,
  recordingsDir: string | undefined,
): Promise<ReplayServer | undefined> {
  const { coingecko, defillamaCoins, coinbase } = config.upstreams;
  const needsReplay =
    [coingecko.url, defillamaCoins.url, coinbase.url].some((url) => url === undefined) ||
    config.upstreams.farcaster.mode === 'local' ||
    walletSourcesNeedReplay(config) ||
    defiSourcesNeedReplay(config);
  return needsReplay ? await startReplayServer({ recordingsDir: recordingsDir ?? defaultRecordingsDir() }) : undefined;
}

/** The price upstreams: live where the env var names one, else the replay's recordings under recordings/<source>/. */
function priceSourcesFrom(config: AppConfig, replay: ReplayServer | undefined, health: SourceHealthRegistry) {
  const { coingecko, defillamaCoins, coinbase } = config.upstreams;
  const upstream = (url: string | undefined, replayName: string): PriceUpstream =>
    url !== undefined ? { baseUrl: url, mode: 'live' } : { baseUrl: replay!.baseUrlFor(replayName), mode: 'local' };
  return createPriceSources({
    coingecko: { ...upstream(coingecko.url, 'coingecko'), apiKey: coingecko.apiKey },
    defillamaCoins: upstream(defillamaCoins.url, 'defillama-coins'),
    coinbase: upstream(coinbase.url, 'coinbase'),
    registry: health,
    timeoutMs: config.upstreamTimeoutMs,
  });
}

/** Farcaster: both replayed, or each configured one live (a missing one stays absent, never replayed in live mode). */
function farcasterSourcesFrom(config: AppConfig, replay: ReplayServer | undefined, health: SourceHealthRegistry) {
  const { farcaster: fc } = config.upstreams;
  const social = (live: { url: string; apiKey: string | undefined } | undefined, replayName: string) =>
    fc.mode === 'local'
      ? { baseUrl: replay!.baseUrlFor(replayName), mode: 'local' as const }
      : live && { baseUrl: live.url, apiKey: live.apiKey, mode: 'live' as const };
  return createFarcasterSources({
    neynar: social(fc.neynar, 'neynar'),
    hub: social(fc.hub, 'farcaster-hub'),
    registry: health,
    timeoutMs: config.upstreamTimeoutMs,
  });
}

/**
 * Every upstream client, each live where its env var is set and local otherwise (the embedded chain, or the
 * replay of recorded replies on an ephemeral loopback port), all reporting to one health registry.
 */
export async function createSources(p: CreateSourcesParams): Promise<CreatedSources> {
  const { config } = p;
  const health = new SourceHealthRegistry();
  const chains = createChainClients({
    chains: config.chains,
    localRpcUrl: p.localRpcUrl,
    localBaseRpcUrl: p.localBaseRpcUrl,
    localContracts: { ensUniversalResolver: localEnsContracts(p.localDeployments)?.universalResolver },
    timeoutMs: config.upstreamTimeoutMs,
    onRequest: p.onRpcRequest,
  });
  const rpc = createRpcSourceClients({ chains, registry: health, timeoutMs: config.upstreamTimeoutMs });

  const replay = await startReplayIfNeeded(config, p.recordingsDir);
  const prices = priceSourcesFrom(config, replay, health);
  const farcaster = farcasterSourcesFrom(config, replay, health);

  const wallet = createWalletSources({
    config,
    replay,
    chains,
    rpc,
    registry: health,
    localTokens: p.localTokens ?? [],
  });

  const defi = createDefiSourcesFromConfig({ config, replay, registry: health });

  const ens = createEnsSources({
    chains,
    rpc,
    registry: health,
    localDeployments: p.localDeployments,
    localBaseDeployments: p.localBaseDeployments,
    subgraphUrl: config.upstreams.ensSubgraph.url,
    recordKeysIndex: p.recordKeysIndex,
    timeoutMs: config.upstreamTimeoutMs,
  });

  const sources: Sources = {
    health,
    chains,
    rpc,
    gas: createGasPriceSource({ chains, rpc }),
    prices,
    farcaster,
    wallet,
    defi,
    ens,
  };
  return {
    sources,
    replay,
    close: async () => {
      await replay?.close();
    },
  };
}
