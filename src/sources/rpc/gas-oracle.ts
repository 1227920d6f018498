import { BaseError, type Chain, type PublicClient, type Transport } from 'viem';
import { ApiError, serviceUnavailable } from '../../errors/api-error.js';
import { GAS_REWARD_PERCENTILES, type GasPrices, gasPricesFromFeeHistory } from './gas-prices-from-fee-history.js';

export type ReadGasPricesParameters = {
  /** How many recent blocks to average tips over. */
  blockCount?: number;
};

/**
 * Current EIP-1559 gas prices of a chain from ONE `eth_feeHistory` call (last 20 blocks, percentiles 10/50/90).
 * Upstream failures become SERVICE_UNAVAILABLE.
 * @example
 * const prices = await readGasPrices(requireClient(clients, 'ethereum'))
 * // prices.standard.maxFeePerGas === '25.1'
 */
export async function readGasPrices(
  client: PublicClient<Transport, Chain>,
  { blockCount = 20 }: ReadGasPricesParameters = {},
): Promise<GasPrices> {
  const chainId = client.chain.id;
  try {
    const feeHistory = await client.getFeeHistory({
      blockCount,
      blockTag: 'latest',
      rewardPercentiles: [...GAS_REWARD_PERCENTILES],
    });
    return gasPricesFromFeeHistory({ chainId, feeHistory });
  } catch (err) {
    if (err instanceof ApiError) throw err;
    // shortMessage, not message: viem's full message carries the RPC URL, which may embed an API key.
    const reason = err instanceof BaseError ? err.shortMessage : 'unexpected error';
    throw serviceUnavailable(`gas prices unavailable for chain ${chainId}: ${reason}`);
  }
}
