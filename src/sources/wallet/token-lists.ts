import { type Address, getAddress } from 'viem';
import { CHAINS, type ChainKey } from '../../config/chains.js';

/** An ERC-20 the wallet routes read balances of: where it lives on one chain and how to read its amounts. */
export interface TokenListEntry {
  address: Address;
  /** Upper-case ticker as responses carry it; also the key into the price table (token-symbols.ts). */
  symbol: string;
  name: string;
  decimals: number;
}

/** The coin a chain pays gas in: read with Multicall3 `getEthBalance`, priced by its ticker. */
export interface NativeCoin {
  symbol: string;
  name: string;
  decimals: 18;
}

/** The chain's native coin and the tokens whose balances a wallet answer lists. */
export interface ChainTokenList {
  chain: ChainKey;
  native: NativeCoin;
  tokens: readonly TokenListEntry[];
}

export type ChainTokenLists = Record<ChainKey, ChainTokenList>;

/** Most tokens one chain's list may hold: with the native balance and the block number they fit one eth_call. */
export const MAX_LISTED_TOKENS = 50;

const ETHER: NativeCoin = { symbol: 'ETH', name: 'Ether', decimals: 18 };
const POL: NativeCoin = { symbol: 'POL', name: 'Polygon Ecosystem Token', decimals: 18 };

// getAddress checks each EIP-55 checksum at load: a mistyped address stops the server at start.
const token = (address: string, symbol: string, name: string, decimals: number): TokenListEntry => ({
  address: getAddress(address),
  symbol,
  name,
  decimals,
});

/**
 * The major ERC-20s of each supported chain (canonical deployments, bridged ones where no native one exists).
 * Only tokens the price table lists, so every balance can be valued.
 */
export const LIVE_TOKEN_LISTS: ChainTokenLists = {
  ethereum: {
    chain: 'ethereum',
    native: ETHER,
    tokens: [
      token('0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', 'USDC', 'USD Coin', 6),
      token('0xdAC17F958D2ee523a2206206994597C13D831ec7', 'USDT', 'Tether USD', 6),
      token('0x6B175474E89094C44Da98b954EedeAC495271d0F', 'DAI', 'Dai Stablecoin', 18),
      token('0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', 'WETH', 'Wrapped Ether', 18),
      token('0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599', 'WBTC', 'Wrapped BTC', 8),
      token('0x514910771AF9Ca656af840dff83E8264EcF986CA', 'LINK', 'ChainLink Token', 18),
      token('0x1f9840a85d5aF5bf1D1762F925BDADdC4201F984', 'UNI', 'Uniswap', 18),
    ],
  },
  base: {
    chain: 'base',
    native: ETHER,
    tokens: [
      token('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', 'USDC', 'USD Coin', 6),
      token('0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb', 'DAI', 'Dai Stablecoin', 18),
      token('0x4200000000000000000000000000000000000006', 'WETH', 'Wrapped Ether', 18),
    ],
  },
  arbitrum: {
    chain: 'arbitrum',
    native: ETHER,
    tokens: [
      token('0xaf88d065e77c8cC2239327C5EDb3A432268e5831', 'USDC', 'USD Coin', 6),
      token('0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9', 'USDT', 'Tether USD', 6),
      token('0x82aF49447D8a07e3bd95BD0d56f35241523fBab1', 'WETH', 'Wrapped Ether', 18),
      token('0x912CE59144191C1204E64559FE8253a0e49E6548', 'ARB', 'Arbitrum', 18),
    ],
  },
  optimism: {
    chain: 'optimism',
    native: ETHER,
    tokens: [
      token('0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85', 'USDC', 'USD Coin', 6),
      token('0x4200000000000000000000000000000000000006', 'WETH', 'Wrapped Ether', 18),
      token('0x4200000000000000000000000000000000000042', 'OP', 'Optimism', 18),
    ],
  },
  polygon: {
    chain: 'polygon',
    native: POL,
    tokens: [
      token('0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', 'USDC', 'USD Coin', 6),
      token('0xc2132D05D31c914a87C6611C10748AEb04B58e8F', 'USDT', 'Tether USD', 6),
      token('0x7ceB23fD6bC0adD59E62ac25578270cFf1b9f619', 'WETH', 'Wrapped Ether', 18),
    ],
  },
};

/**
 * The lists the service reads with: the live lists, except that a chain served by the embedded local chain lists the
 * tokens deployed there instead (their mainnet addresses hold nothing locally).
 * @example tokenListsFor({ localChains: ['ethereum'], localTokens }).ethereum.tokens[0].symbol // 'USDC'
 */
export function tokenListsFor(p: {
  localChains: readonly ChainKey[];
  localTokens: readonly TokenListEntry[];
}): ChainTokenLists {
  if (p.localTokens.length > MAX_LISTED_TOKENS)
    throw new Error(`a token list holds at most ${MAX_LISTED_TOKENS} tokens`);
  const lists = Object.fromEntries(
    CHAINS.map(({ key }): [ChainKey, ChainTokenList] => [
      key,
      p.localChains.includes(key) ? { ...LIVE_TOKEN_LISTS[key], tokens: p.localTokens } : LIVE_TOKEN_LISTS[key],
    ]),
  );
  return lists as ChainTokenLists;
}
