import { type FeeHistory, formatGwei } from 'viem';
import { serviceUnavailable } from '../../errors/api-error.js';

/** The reward percentiles asked of `eth_feeHistory`, in the order slow, standard, fast. */
export const GAS_REWARD_PERCENTILES = [10, 50, 90] as const;

/** EIP-1559 fees for one speed, as decimal gwei strings (e.g. '1.5'). */
export type GasSpeedFees = {
  maxPriorityFeePerGas: string;
  maxFeePerGas: string;
};

export type GasPrices = {
  chainId: number;
  /** The newest block the fee history covers. */
  blockNumber: number;
  /** Base fee of the next block (the one a transaction sent now lands in), decimal gwei. */
  baseFeeGwei: string;
  slow: GasSpeedFees;
  standard: GasSpeedFees;
  fast: GasSpeedFees;
};

export type GasPricesFromFeeHistoryParameters = {
  chainId: number;
  /** An `eth_feeHistory` reply asked with reward percentiles [10, 50, 90]. */
  feeHistory: FeeHistory;
};

/**
 * Maps an `eth_feeHistory` reply to slow / standard / fast fees: each priority fee is the average of its percentile
 * over the blocks that paid any tip, and each max fee is 2 × next base fee + priority fee.
 * @example
 * gasPricesFromFeeHistory({ chainId: 1, feeHistory: await client.getFeeHistory({ blockCount: 20, rewardPercentiles: [10, 50, 90] }) })
 * // { chainId: 1, blockNumber: 21000000, baseFeeGwei: '12.5', slow: { maxPriorityFeePerGas: '1', maxFeePerGas: '26' }, … }
 */
export function gasPricesFromFeeHistory({ chainId, feeHistory }: GasPricesFromFeeHistoryParameters): GasPrices {
  const { baseFeePerGas, gasUsedRatio, oldestBlock, reward } = feeHistory;
  const blockCount = gasUsedRatio.length;
  const nextBaseFee = baseFeePerGas.at(-1);
  if (blockCount === 0 || nextBaseFee === undefined || !reward || reward.length !== blockCount)
    throw serviceUnavailable(`malformed fee history for chain ${chainId}`);
  if (reward.some((row) => row.length !== GAS_REWARD_PERCENTILES.length))
    throw serviceUnavailable(`malformed fee history rewards for chain ${chainId}`);

  // Empty blocks report zero rewards; averaging them in would drag every tip toward zero.
  const tippedRows = reward.filter((row) => row.some((value) => value > 0n));
  const rows = tippedRows.length > 0 ? tippedRows : reward;

  const speedFees = (percentileIndex: number): GasSpeedFees => {
    const priorityFee = rows.reduce((sum, row) => sum + row[percentileIndex], 0n) / BigInt(rows.length);
    // The common wallet rule: room for the base fee to double (≈6 full blocks) before the transaction stalls.
    const maxFee = 2n * nextBaseFee + priorityFee;
    return { maxPriorityFeePerGas: formatGwei(priorityFee), maxFeePerGas: formatGwei(maxFee) };
  };

  return {
    chainId,
    blockNumber: Number(oldestBlock) + blockCount - 1,
    baseFeeGwei: formatGwei(nextBaseFee),
    slow: speedFees(0),
    standard: speedFees(1),
    fast: speedFees(2),
  };
}
