import type { Address } from 'viem';
import type { ChainKey } from '../../src/config/chains.js';
import type { MarketQuote } from '../../src/sources/prices/price-quotes.js';
import type { WalletHoldings } from '../../src/sources/rpc/chain-token-reads.js';
import type { Sources } from '../../src/sources/sources.js';
import { defineLoader } from '../shared/define-loader.js';

/** One wallet on one chain. */
export interface WalletOnChain {
  chain: ChainKey;
  address: Address;
}

const walletKey = (w: WalletOnChain): string => `${w.chain}:${w.address}`;

/**
 * Balances of wallets: every wallet asked in one request becomes ONE multicall `eth_call` per chain.
 * @example await walletHoldingsLoader.of(ctx).load({ chain: 'ethereum', address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' })
 */
export const walletHoldingsLoader = defineLoader<WalletOnChain, WalletHoldings, Sources, string>({
  name: 'walletHoldings',
  batch: async (wallets, sources) => {
    const byChain = new Map<ChainKey, Address[]>();
    for (const { chain, address } of wallets) byChain.set(chain, [...(byChain.get(chain) ?? []), address]);
    const read = new Map<string, WalletHoldings | Error>();
    await Promise.all(
      [...byChain].map(async ([chain, addresses]) => {
        try {
          const holdings = await sources.wallet.chainReads.holdings(chain, addresses);
          holdings.forEach((h, i) => {
            read.set(walletKey({ chain, address: addresses[i] }), h);
          });
        } catch (err) {
          const failure = err instanceof Error ? err : new Error(String(err));
          for (const address of addresses) read.set(walletKey({ chain, address }), failure);
        }
      }),
    );
    return wallets.map((w) => read.get(walletKey(w))!);
  },
  cacheKey: walletKey,
});

/**
 * USD quotes by CoinGecko id: every id asked in one request becomes ONE simple/price call; a price outage leaves
 * every quote null (balances are still answered, without USD values).
 * @example await walletPriceLoader.of(ctx).loadMany(['ethereum', 'usd-coin'])
 */
export const walletPriceLoader = defineLoader<string, MarketQuote | null, Sources>({
  name: 'walletPrice',
  batch: async (ids, sources) => {
    const quotes = await sources.prices.coingecko.marketQuotes(ids).catch(() => new Map<string, MarketQuote>());
    return ids.map((id) => quotes.get(id) ?? null);
  },
});
