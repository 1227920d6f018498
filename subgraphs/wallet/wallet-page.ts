import { ArgsType, Field, Int } from 'type-graphql';
import type { Address } from 'viem';
import { chainName } from '../../src/arguments/chain.js';
import { checksummedAddress } from '../../src/arguments/evm-address.js';
import { DEFAULT_PAGE_LIMIT, DEFAULT_PAGE_OFFSET, MAX_PAGE_LIMIT } from '../../src/arguments/pagination.js';
import { parseArgument } from '../../src/arguments/parse-argument.js';
import { checkWithinWindow, walletLimit, walletWindowOffset } from '../../src/arguments/wallet-arguments.js';
import type { ChainKey } from '../../src/config/chains.js';
import type { WalletPagination } from './types.js';

/** The arguments of a page of what an address has (transactions, NFTs), in the order the published SDL lists them. */
@ArgsType()
export class WalletPageArgs {
  @Field(() => Int, { defaultValue: DEFAULT_PAGE_OFFSET }) offset!: number;
  @Field(() => Int, { defaultValue: DEFAULT_PAGE_LIMIT, description: `1 to ${MAX_PAGE_LIMIT}` }) limit!: number;
  @Field(() => String, { defaultValue: 'ethereum' }) chain!: string;
  @Field(() => String) address!: string;
}

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
