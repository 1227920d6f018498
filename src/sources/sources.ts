import type { ChainKey } from '../config/chains.js';
import type { DefiSources } from './defi/defi-sources.js';
import type { EnsSources } from './ens/ens-sources.js';
import type { FarcasterSources } from './farcaster/farcaster-sources.js';
import type { GasPriceSource } from './gas-price-source.js';
import type { PriceSources } from './prices/price-sources.js';
import type { ChainClient } from './rpc/chain-clients.js';
import type { RpcSourceClients } from './rpc/rpc-source-clients.js';
import type { SourceHealthRegistry } from './source-health.js';
import type { WalletSources } from './wallet/wallet-sources.js';

/** Every upstream client the subgraphs read through, built once at start (src/server/create-sources.ts). */
export interface Sources {
  health: SourceHealthRegistry;
  chains: Record<ChainKey, ChainClient>;
  /** Cache, breaker and health around each chain's RPC. */
  rpc: RpcSourceClients;
  gas: GasPriceSource;
  /** CoinGecko, DefiLlama coins and Coinbase spot: token prices, charts, trending. */
  prices: PriceSources;
  /** Neynar (primary) and a Farcaster hub (fallback): users, casts, followers, search, feed. */
  farcaster: FarcasterSources;
  /** Wallet balances and chain utilities: chain reads, Etherscan, Sourcify, Alchemy NFT. */
  wallet: WalletSources;
  /** DefiLlama (TVL, yields, hacks, raises, unlocks), DeBank positions, growthepie active addresses. */
  defi: DefiSources;
  /** ENS on Ethereum (Universal Resolver, registry, .eth registrar) and names by address (ENS subgraph or local events). */
  ens: EnsSources;
}
