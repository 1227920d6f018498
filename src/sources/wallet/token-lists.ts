import { type Address, getAddress } from 'viem';
import { CHAINS, type ChainKey } from '../../config/chains.js';

/** An ERC-20 the wallet routes read balances of: where it lives on one chain and how to read its amounts. */
export interface TokenListEntry {
  address: Address;
  /** Upper-case ticker as responses carry it; also the key into the price table (src/arguments/token-symbol.ts). */
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

/** Name and decimals of each listed ERC-20: the same on every chain below (their canonical or bridged deployment). */
const LISTED_TOKENS = {
  USDC: { name: 'USD Coin', decimals: 6 },
  USDT: { name: 'Tether USD', decimals: 6 },
  DAI: { name: 'Dai Stablecoin', decimals: 18 },
  WETH: { name: 'Wrapped Ether', decimals: 18 },
  WBTC: { name: 'Wrapped BTC', decimals: 8 },
  LINK: { name: 'ChainLink Token', decimals: 18 },
  UNI: { name: 'Uniswap', decimals: 18 },
  ARB: { name: 'Arbitrum', decimals: 18 },
  OP: { name: 'Optimism', decimals: 18 },
} as const;

/** Each chain's native coin and the address of each token it lists, in the order balances are answered. */
const DEPLOYMENTS: Record<
  ChainKey,
  { native: NativeCoin; tokens: Partial<Record<keyof typeof LISTED_TOKENS, string>> }
> = {
  ethereum: {
    native: ETHER,
    tokens: {
      USDC: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      USDT: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
      DAI: '0x6B175474E89094C44Da98b954EedeAC495271d0F',
      WETH: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
      WBTC: '0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599',
      LINK: '0x514910771AF9Ca656af840dff83E8264EcF986CA',
      UNI: '0x1f9840a85d5aF5bf1D1762F925BDADdC4201F984',
    },
  },
  base: {
    native: ETHER,
    tokens: {
      USDC: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      DAI: '0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb',
      WETH: '0x4200000000000000000000000000000000000006',
    },
  },
  arbitrum: {
    native: ETHER,
    tokens: {
      USDC: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
      USDT: '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9',
      WETH: '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1',
      ARB: '0x912CE59144191C1204E64559FE8253a0e49E6548',
    },
  },
  optimism: {
    native: ETHER,
    tokens: {
      USDC: '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85',
      WETH: '0x4200000000000000000000000000000000000006',
      OP: '0x4200000000000000000000000000000000000042',
    },
  },
  polygon: {
    native: POL,
    tokens: {
      USDC: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
      USDT: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
      WETH: '0x7ceB23fD6bC0adD59E62ac25578270cFf1b9f619',
    },
  },
};

/**
 * The major ERC-20s of each supported chain (canonical deployments, bridged ones where no native one exists).
 * Only tokens the price table lists, so every balance can be valued.
 */
export const LIVE_TOKEN_LISTS: ChainTokenLists = Object.fromEntries(
  CHAINS.map(({ key }): [ChainKey, ChainTokenList] => {
    const { native, tokens } = DEPLOYMENTS[key];
    const entries = Object.entries(tokens).map(([symbol, address]) => ({
      // getAddress checks each EIP-55 checksum at load: a mistyped address stops the server at start.
      address: getAddress(address),
      symbol,
      ...LISTED_TOKENS[symbol as keyof typeof LISTED_TOKENS],
    }));
    return [key, { chain: key, native, tokens: entries }];
  }),
) as ChainTokenLists;

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
