import { Arg, Args, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import { type Address, formatEther, formatUnits } from 'viem';
import { argumentOptions } from '../../src/arguments/argument-options.js';
import { chainName, chainOrDefault } from '../../src/arguments/chain.js';
import { checksummedAddress } from '../../src/arguments/evm-address.js';
import { parseArgument } from '../../src/arguments/parse-argument.js';
import { findToken } from '../../src/arguments/token-symbol.js';
import { MAX_NFT_WINDOW, MAX_TRANSACTION_WINDOW } from '../../src/arguments/wallet-limits.js';
import { findChain } from '../../src/config/chains.js';
import type { ExplorerTransaction } from '../../src/sources/explorer/etherscan-client.js';
import type { OwnedNft } from '../../src/sources/nft/alchemy-nft-client.js';
import { NFT_PAGE_SIZE } from '../../src/sources/nft/alchemy-nft-client.js';
import type { GraphContext } from '../shared/graph-context.js';
import { walletHoldingsLoader, walletPriceLoader } from './loaders.js';
import {
  Wallet,
  WalletBalance,
  WalletNftPage,
  WalletToken,
  WalletTransaction,
  WalletTransactionPage,
} from './types.js';
import {
  pagination,
  WalletNftPageArgs,
  type WalletPageArgs,
  WalletTransactionPageArgs,
  walletPage,
} from './wallet-page.js';

/** USD value of an exact decimal amount, rounded to cents. */
const usd = (amount: string, price: number | null): number | null =>
  price === null ? null : Math.round(Number(amount) * price * 100) / 100;

async function walletBalance(ctx: GraphContext, address: Address, chainArgument: string): Promise<WalletBalance> {
  const chain = findChain(parseArgument(chainName, 'chain', chainArgument))!;
  const list = ctx.sources.wallet.chainReads.tokenLists[chain.key];
  const holdings = await walletHoldingsLoader.of(ctx).load({ chain: chain.key, address });
  const held = holdings.tokens.filter((t) => t.raw !== null && t.raw > 0n);
  const symbols = [list.native.symbol, ...held.map((t) => t.token.symbol)];
  const ids = symbols.map((s) => findToken(s)?.coingeckoId ?? null);
  const prices = walletPriceLoader.of(ctx);
  const quotes = await Promise.all(ids.map((id) => (id === null ? null : prices.load(id))));
  const priceOf = (i: number): number | null => quotes[i]?.priceUsd ?? null;

  const balance = formatEther(holdings.nativeWei);
  const tokens: WalletToken[] = held.map((t, i) => {
    const amount = formatUnits(t.raw!, t.token.decimals);
    return {
      symbol: t.token.symbol,
      name: t.token.name,
      address: t.token.address,
      decimals: t.token.decimals,
      balance: amount,
      balanceRaw: t.raw!.toString(),
      priceUsd: priceOf(i + 1),
      balanceUsd: usd(amount, priceOf(i + 1)),
    };
  });
  const balanceUsd = usd(balance, priceOf(0));
  const values = [holdings.nativeWei > 0n ? balanceUsd : 0, ...tokens.map((t) => t.balanceUsd)];
  const totalUsd = values.some((v) => v === null)
    ? null
    : Math.round(values.reduce<number>((sum, v) => sum + v!, 0) * 100) / 100;
  return {
    address,
    chain: chain.key,
    chainId: chain.id,
    symbol: list.native.symbol,
    balance,
    balanceWei: holdings.nativeWei.toString(),
    priceUsd: priceOf(0),
    balanceUsd,
    tokens,
    totalUsd,
    blockNumber: holdings.blockNumber.toString(),
  };
}

function direction(tx: ExplorerTransaction, owner: Address): string {
  const sent = tx.from === owner;
  const received = tx.to === owner;
  return sent && received ? 'self' : sent ? 'out' : 'in';
}

@Resolver(() => Wallet)
export class WalletFieldResolver {
  @FieldResolver(() => WalletBalance, {
    description: 'Native and listed ERC-20 balances with USD values (one multicall per chain per request)',
  })
  balance(
    @Root() wallet: Wallet,
    @Arg('chain', () => String, argumentOptions(chainOrDefault)) chain: string,
    @Ctx() ctx: GraphContext,
  ): Promise<WalletBalance> {
    return walletBalance(ctx, parseArgument(checksummedAddress, 'address', wallet.address), chain);
  }
}

@Resolver()
export class WalletResolver {
  @Query(() => WalletBalance, {
    description: 'Native and listed ERC-20 balances of an address, read in one multicall, valued in USD',
  })
  walletBalance(
    @Arg('address', () => String) address: string,
    @Arg('chain', () => String, argumentOptions(chainOrDefault)) chain: string,
    @Ctx() ctx: GraphContext,
  ): Promise<WalletBalance> {
    return walletBalance(ctx, parseArgument(checksummedAddress, 'address', address), chain);
  }

  @Query(() => WalletTransactionPage, {
    description: 'Normal transactions of an address, newest first (explorer txlist)',
  })
  async walletTransactions(
    @Args(() => WalletTransactionPageArgs) args: WalletPageArgs,
    @Ctx() ctx: GraphContext,
  ): Promise<WalletTransactionPage> {
    const { owner, key, limit, offset } = walletPage(args, MAX_TRANSACTION_WINDOW);
    // One more than the window: whether another page exists. The explorer reports no count, so `total` is exact
    // once the list ends inside that window, and otherwise the number known so far.
    const listed = await ctx.sources.wallet.explorer.transactions(key, owner, offset + limit + 1);
    const data: WalletTransaction[] = listed
      .slice(offset, offset + limit)
      .map((tx) => ({ ...tx, direction: direction(tx, owner) }));
    return { data, pagination: pagination(limit, offset, listed.length) };
  }

  @Query(() => WalletNftPage, { description: "NFTs an address holds (NFT API), in the API's order" })
  async walletNfts(
    @Args(() => WalletNftPageArgs) args: WalletPageArgs,
    @Ctx() ctx: GraphContext,
  ): Promise<WalletNftPage> {
    const { owner, key, limit, offset } = walletPage(args, MAX_NFT_WINDOW);
    // Pages of 100 behind opaque keys: walk from the first page to the one holding offset + limit.
    const nfts: OwnedNft[] = [];
    let total = 0;
    let pageKey: string | null = null;
    for (let fetched = 0; fetched < offset + limit; fetched += NFT_PAGE_SIZE) {
      const result = await ctx.sources.wallet.nfts.ownedPage(key, owner, pageKey);
      nfts.push(...result.nfts);
      total = result.totalCount;
      pageKey = result.pageKey;
      if (pageKey === null) break;
    }
    return { data: nfts.slice(offset, offset + limit), pagination: pagination(limit, offset, total) };
  }
}

/** `Wallet` by address in any case: the join other subgraphs (ens, farcaster) point at. */
export const walletReferenceResolvers = {
  Wallet: {
    __resolveReference(ref: { address: string }): Wallet {
      return { address: parseArgument(checksummedAddress, 'address', ref.address) };
    },
  },
};
