import type { ChainKey } from '../config/chains.js';
import type { GasPriceSource } from './gas-price-source.js';
import type { PriceSources } from './prices/price-sources.js';
import type { ChainClient } from './rpc/chain-clients.js';
import type { RpcSourceClients } from './rpc/rpc-source-clients.js';
import type { SourceHealthRegistry } from './source-health.js';

/** Every upstream client the subgraphs read through, built once at start (src/server/create-sources.ts). */
export interface Sources {
  health: SourceHealthRegistry;
  chains: Record<ChainKey, ChainClient>;
  /** Cache, breaker and health around each chain's RPC. */
  rpc: RpcSourceClients;
  gas: GasPriceSource;
  /** CoinGecko, DefiLlama coins and Coinbase spot: token prices, charts, trending. */
  prices: PriceSources;
}
