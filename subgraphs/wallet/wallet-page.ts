import { ArgsType, Field, Int } from 'type-graphql';
import type { Address } from 'viem';
import { argumentOptions } from '../../src/arguments/argument-options.js';
import { chainName, chainOrDefault } from '../../src/arguments/chain.js';
import { checksummedAddress } from '../../src/arguments/evm-address.js';
import { parseArgument } from '../../src/arguments/parse-argument.js';
import { checkWithinWindow, walletLimit, walletWindowOffset } from '../../src/arguments/wallet-arguments.js';
import { MAX_NFT_WINDOW, MAX_TRANSACTION_WINDOW } from '../../src/arguments/wallet-limits.js';
import type { ChainKey } from '../../src/config/chains.js';
import type { WalletPagination } from './types.js';

/**
 * The arguments of a page of what an address has within a window of `window` items (transactions, NFTs), in the
 * order the published SDL lists them; each argument's default and description are its rule's.
 */
function walletPageArgs(window: number) {
  @ArgsType()
  class WalletPageArgs {
    @Field(() => Int, argumentOptions(walletWindowOffset(window))) offset!: number;
    @Field(() => Int, argumentOptions(walletLimit)) limit!: number;
    @Field(() => String, argumentOptions(chainOrDefault)) chain!: string;
    @Field(() => String) address!: string;
  }
  return WalletPageArgs;
}

/** A page of an address's transactions, within the explorer's window. */
export const WalletTransactionPageArgs = walletPageArgs(MAX_TRANSACTION_WINDOW);
/** A page of an address's NFTs, within the pages the NFT API walks. */
export const WalletNftPageArgs = walletPageArgs(MAX_NFT_WINDOW);
export type WalletPageArgs = InstanceType<typeof WalletTransactionPageArgs>;

/**
 * The owner checksummed, the chain's key and the page, checked in that order (400 INVALID_PARAMETER naming the
 * argument at fault): the REST ranges of limit and offset first, then offset + limit within a window of `window`
 * items.
 * @example walletPage({ address: '0xd8da6bf26964af9d7eed9e03e53415d37aa96045', chain: 'base', limit: 20, offset: 0 }, 1000).key // 'base'
 */
export function walletPage(
  args: WalletPageArgs,
  window: number,
): { owner: Address; key: ChainKey; limit: number; offset: number } {
  const owner = parseArgument(checksummedAddress, 'address', args.address);
  const key = parseArgument(chainName, 'chain', args.chain);
  const { limit, offset } = args;
  parseArgument(walletLimit, 'limit', limit);
  parseArgument(walletWindowOffset(window), 'offset', offset);
  checkWithinWindow(offset, limit, window);
  return { owner, key, limit, offset };
}

/**
 * The pagination of a page of `total` items known so far.
 * @example pagination(20, 0, 25) // { limit: 20, offset: 0, total: 25, hasMore: true }
 */
export const pagination = (limit: number, offset: number, total: number): WalletPagination => ({
  limit,
  offset,
  total,
  hasMore: offset + limit < total,
});
