import DataLoader from 'dataloader';
import type { Address } from 'viem';
import type { ChainKey } from '../../src/config/chains.js';
import type { MarketQuote } from '../../src/sources/prices/price-quotes.js';
import type { WalletHoldings } from '../../src/sources/rpc/chain-token-reads.js';
import type { Sources } from '../../src/sources/sources.js';

/** `ethereum:0x…` → the chain and the address. */
const splitKey = (key: string): [ChainKey, Address] => {
  const at = key.indexOf(':');
  return [key.slice(0, at) as ChainKey, key.slice(at + 1) as Address];
};

/**
 * Balances by `chain:address`: every wallet asked in one request becomes ONE multicall `eth_call` per chain.
 * @example await walletHoldingsLoader(sources).load('ethereum:0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
 */
export function walletHoldingsLoader(sources: Sources): DataLoader<string, WalletHoldings> {
  return new DataLoader(async (keys) => {
    const byChain = new Map<ChainKey, Address[]>();
    for (const key of keys) {
      const [chain, address] = splitKey(key);
      byChain.set(chain, [...(byChain.get(chain) ?? []), address]);
    }
    const read = new Map<string, WalletHoldings | Error>();
    await Promise.all(
      [...byChain].map(async ([chain, addresses]) => {
        try {
          const holdings = await sources.wallet.chainReads.holdings(chain, addresses);
          holdings.forEach((h, i) => {
            read.set(`${chain}:${addresses[i]}`, h);
          });
        } catch (err) {
          for (const a of addresses) read.set(`${chain}:${a}`, err instanceof Error ? err : new Error(String(err)));
        }
      }),
    );
    return keys.map((k) => read.get(k)!);
  });
}

/**
 * USD quotes by CoinGecko id: every id asked in one request becomes ONE simple/price call; a price outage leaves
 * every quote null (balances are still answered, without USD values).
 * @example await walletPriceLoader(sources).loadMany(['ethereum', 'usd-coin'])
 */
export function walletPriceLoader(sources: Sources): DataLoader<string, MarketQuote | null> {
  return new DataLoader(async (ids) => {
    const quotes = await sources.prices.coingecko.marketQuotes(ids).catch(() => new Map<string, MarketQuote>());
    return ids.map((id) => quotes.get(id) ?? null);
  });
}
