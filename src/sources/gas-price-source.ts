import type { ChainKey } from '../config/chains.js';
import { serviceUnavailable } from '../errors/api-error.js';
import { type ChainClients, requireClient } from './rpc/chain-clients.js';
import { readGasPrices } from './rpc/gas-oracle.js';
import type { GasSpeedFees } from './rpc/gas-prices-from-fee-history.js';
import type { RpcSourceClients } from './rpc/rpc-source-clients.js';

/** docs/api-contract.md#data-freshness: gas prices 12 seconds (per block). */
export const GAS_FRESHNESS_MS = 12_000;

export interface GasPriceView {
  chain: ChainKey;
  chainId: number;
  blockNumber: string;
  baseFee: string;
  slow: GasSpeedFees;
  standard: GasSpeedFees;
  fast: GasSpeedFees;
  unit: 'gwei';
  timestamp: string;
}

export interface GasPriceSource {
  read(chain: ChainKey): Promise<GasPriceView>;
}

/**
 * Gas prices per chain from one eth_feeHistory, cached for a block's time; concurrent askers share one call.
 * @example await createGasPriceSource({ chains, rpc }).read('ethereum')
 */
export function createGasPriceSource(p: { chains: ChainClients; rpc: RpcSourceClients }): GasPriceSource {
  return {
    async read(chain) {
      const source = p.rpc[chain];
      if (!source) throw serviceUnavailable(`no RPC configured for ${chain}`);
      const client = requireClient(p.chains, chain);
      return source.load(
        'gas',
        async () => {
          const g = await readGasPrices(client);
          return {
            chain,
            chainId: g.chainId,
            blockNumber: String(g.blockNumber),
            baseFee: g.baseFeeGwei,
            slow: g.slow,
            standard: g.standard,
            fast: g.fast,
            unit: 'gwei' as const,
            timestamp: new Date().toISOString(),
          };
        },
        { freshnessMs: GAS_FRESHNESS_MS },
      );
    },
  };
}
