import { BaseError, ContractFunctionRevertedError, ContractFunctionZeroDataError } from 'viem';
import type { ChainRpcClient } from '../rpc/chain-clients.js';

/** One read's outcome inside a Multicall3 `aggregate3` call. */
export type MulticallResult = { status: 'success'; result: unknown } | { status: 'failure'; error: unknown };

/** The revert inside a viem error, if the contract reverted (as opposed to the chain failing). */
export function revertOf(err: unknown): ContractFunctionRevertedError | ContractFunctionZeroDataError | undefined {
  if (!(err instanceof BaseError)) return undefined;
  const found = err.walk(
    (e) => e instanceof ContractFunctionRevertedError || e instanceof ContractFunctionZeroDataError,
  );
  return found as ContractFunctionRevertedError | ContractFunctionZeroDataError | undefined;
}

/**
 * Every read in ONE `aggregate3` call (batchSize 0: never split). A read whose contract reverted is answered as its
 * failure, for the caller to read as "no answer"; any other failure is the chain failing, and throws.
 * @example const [owner, expires] = await readAllInOneCall(client, [ownerRead, expiresRead])
 */
export async function readAllInOneCall(client: ChainRpcClient, reads: readonly unknown[]): Promise<MulticallResult[]> {
  const results = (await client.multicall({
    contracts: reads as never,
    allowFailure: true,
    batchSize: 0,
  })) as MulticallResult[];
  const failure = results.find((r) => r.status === 'failure' && !revertOf(r.error));
  if (failure?.status === 'failure') throw failure.error;
  return results;
}
