import type { AppConfig } from '../../config/config.js';
import { type ChainReads, createChainReads } from '../chain-reads.js';
import { EtherscanClient } from '../explorer/etherscan-client.js';
import { SourcifyClient } from '../explorer/sourcify-client.js';
import type { ReplayUrls } from '../http-upstream.js';
import { AlchemyNftClient, alchemyNftBaseUrl } from '../nft/alchemy-nft-client.js';
import type { ChainClients } from '../rpc/chain-clients.js';
import type { RpcSourceClients } from '../rpc/rpc-source-clients.js';
import type { SourceHealthRegistry } from '../source-health.js';
import { type TokenListEntry, tokenListsFor } from './token-lists.js';

/** The sources of the wallet and chain-utility routes. */
export interface WalletSources {
  /** Balances, token and NFT contracts, address kinds and code: one JSON-RPC call each, per chain. */
  chainReads: ChainReads;
  /** Etherscan API v2: transactions, first transaction, verified source. */
  explorer: EtherscanClient;
  /** Sourcify API v2: verified ABIs the explorer lacks. */
  sourcify: SourcifyClient;
  /** Alchemy NFT API v3: the NFTs a wallet holds. */
  nfts: AlchemyNftClient;
}

/** The key the replay's recorded Alchemy paths carry (`/nft/v3/<key>/getNFTsForOwner`). */
export const REPLAY_ALCHEMY_KEY = 'replay-key';

/** True when some wallet upstream has nothing live configured and so needs the replay. */
export function walletSourcesNeedReplay(config: AppConfig): boolean {
  const { etherscan, sourcify, alchemyNft } = config.upstreams;
  return etherscan.url === undefined || sourcify.url === undefined || alchemyNft.apiKey === undefined;
}

/**
 * Builds the wallet sources: each upstream live where configured, else the replay under its source name
 * (etherscan, sourcify, alchemy-nft); the token lists use `localTokens` on chains the embedded chain serves.
 * @example createWalletSources({ config, replay, chains, rpc, registry, localTokens: localTokenList(deployments) })
 */
export function createWalletSources(p: {
  config: AppConfig;
  replay: ReplayUrls | undefined;
  chains: ChainClients;
  rpc: RpcSourceClients;
  registry: SourceHealthRegistry;
  localTokens: readonly TokenListEntry[];
}): WalletSources {
  const { etherscan, sourcify, alchemyNft } = p.config.upstreams;
  const common = { registry: p.registry, timeoutMs: p.config.upstreamTimeoutMs };
  const replayUrl = (name: string): string => {
    if (!p.replay) throw new Error(`source ${name} needs the replay, which is not running`);
    return p.replay.baseUrlFor(name);
  };
  // The demo tokens are deployed on the embedded Ethereum chain only; the embedded Base chain keeps Base's own list
  // (its test USDC sits at USDC's Base address).
  const localChains = Object.values(p.chains)
    .filter((c) => c.mode === 'local' && c.key === 'ethereum')
    .map((c) => c.key);
  const alchemyKey = alchemyNft.apiKey;
  return {
    chainReads: createChainReads({
      chains: p.chains,
      rpc: p.rpc,
      tokenLists: tokenListsFor({ localChains, localTokens: p.localTokens }),
    }),
    explorer: new EtherscanClient(
      etherscan.url === undefined
        ? { baseUrl: replayUrl('etherscan'), mode: 'local', apiKey: 'replay-key', ...common }
        : { baseUrl: etherscan.url, mode: 'live', apiKey: etherscan.apiKey, ...common },
    ),
    sourcify: new SourcifyClient(
      sourcify.url === undefined
        ? { baseUrl: replayUrl('sourcify'), mode: 'local', ...common }
        : { baseUrl: sourcify.url, mode: 'live', ...common },
    ),
    nfts: new AlchemyNftClient(
      alchemyKey === undefined
        ? { baseUrlFor: () => `${replayUrl('alchemy-nft')}/nft/v3/${REPLAY_ALCHEMY_KEY}`, mode: 'local', ...common }
        : {
            baseUrlFor: (chain) => alchemyNftBaseUrl(chain, alchemyKey),
            mode: 'live',
            ...common,
          },
    ),
  };
}
