import { z } from 'zod';

/** A token the price routes answer for, and how each upstream names it. */
export interface TokenListing {
  /** Canonical ticker, upper case, as responses carry it. */
  symbol: string;
  name: string;
  /** CoinGecko coin id; DefiLlama's coins API names the same coin `coingecko:<id>`. */
  coingeckoId: string;
  /** Coinbase spot pair (`BASE-USD`) where Coinbase lists the asset; absent = Coinbase has no quote. */
  coinbasePair?: string;
}

/** Ticker syntax the routes accept: 1–15 letters, digits, dots and dashes (e.g. `1INCH`, `USDC.E`). */
export const SYMBOL_PATTERN = /^[A-Za-z0-9.-]{1,15}$/;

/** A ticker: 1–15 letters, digits, dots or dashes, any case. */
export const tokenSymbol = z
  .string()
  .regex(SYMBOL_PATTERN, 'must be 1–15 letters, digits, dots or dashes')
  .describe('token symbol (ticker), any case, e.g. ETH')
  .meta({ example: 'ETH' });

/**
 * Most symbols one batch call may ask for. 50 keeps each upstream request one short URL (DefiLlama puts every
 * coin in the path as `coingecko:<id>`, ≈ 1.2 KB for 50) and covers the whole table below in one call.
 */
export const MAX_BATCH_SYMBOLS = 50;

const t = (symbol: string, name: string, coingeckoId: string, coinbasePair?: string): TokenListing =>
  coinbasePair === undefined ? { symbol, name, coingeckoId } : { symbol, name, coingeckoId, coinbasePair };

/** The major tokens of the supported chains (and the large caps callers compare them with). */
export const TOKEN_LISTINGS: readonly TokenListing[] = [
  t('ETH', 'Ethereum', 'ethereum', 'ETH-USD'),
  t('BTC', 'Bitcoin', 'bitcoin', 'BTC-USD'),
  t('USDC', 'USD Coin', 'usd-coin', 'USDC-USD'),
  t('USDT', 'Tether', 'tether', 'USDT-USD'),
  t('DAI', 'Dai', 'dai', 'DAI-USD'),
  t('WETH', 'Wrapped Ether', 'weth'),
  t('WBTC', 'Wrapped Bitcoin', 'wrapped-bitcoin', 'WBTC-USD'),
  t('STETH', 'Lido Staked Ether', 'staked-ether'),
  t('WSTETH', 'Wrapped stETH', 'wrapped-steth'),
  t('RETH', 'Rocket Pool ETH', 'rocket-pool-eth'),
  t('CBETH', 'Coinbase Wrapped Staked ETH', 'coinbase-wrapped-staked-eth', 'CBETH-USD'),
  t('LINK', 'Chainlink', 'chainlink', 'LINK-USD'),
  t('UNI', 'Uniswap', 'uniswap', 'UNI-USD'),
  t('AAVE', 'Aave', 'aave', 'AAVE-USD'),
  t('ARB', 'Arbitrum', 'arbitrum', 'ARB-USD'),
  t('OP', 'Optimism', 'optimism', 'OP-USD'),
  t('MATIC', 'Polygon (MATIC)', 'matic-network'),
  t('POL', 'Polygon Ecosystem Token', 'polygon-ecosystem-token', 'POL-USD'),
  t('SOL', 'Solana', 'solana', 'SOL-USD'),
  t('BNB', 'BNB', 'binancecoin'),
  t('XRP', 'XRP', 'ripple', 'XRP-USD'),
  t('ADA', 'Cardano', 'cardano', 'ADA-USD'),
  t('DOGE', 'Dogecoin', 'dogecoin', 'DOGE-USD'),
  t('AVAX', 'Avalanche', 'avalanche-2', 'AVAX-USD'),
  t('DOT', 'Polkadot', 'polkadot', 'DOT-USD'),
  t('LTC', 'Litecoin', 'litecoin', 'LTC-USD'),
  t('BCH', 'Bitcoin Cash', 'bitcoin-cash', 'BCH-USD'),
  t('ETC', 'Ethereum Classic', 'ethereum-classic', 'ETC-USD'),
  t('XLM', 'Stellar', 'stellar', 'XLM-USD'),
  t('ATOM', 'Cosmos Hub', 'cosmos', 'ATOM-USD'),
  t('NEAR', 'NEAR Protocol', 'near', 'NEAR-USD'),
  t('FIL', 'Filecoin', 'filecoin', 'FIL-USD'),
  t('APT', 'Aptos', 'aptos', 'APT-USD'),
  t('SUI', 'Sui', 'sui', 'SUI-USD'),
  t('HBAR', 'Hedera', 'hedera-hashgraph', 'HBAR-USD'),
  t('ICP', 'Internet Computer', 'internet-computer', 'ICP-USD'),
  t('MKR', 'Maker', 'maker', 'MKR-USD'),
  t('LDO', 'Lido DAO', 'lido-dao', 'LDO-USD'),
  t('CRV', 'Curve DAO', 'curve-dao-token', 'CRV-USD'),
  t('COMP', 'Compound', 'compound-governance-token', 'COMP-USD'),
  t('SNX', 'Synthetix', 'havven', 'SNX-USD'),
  t('SUSHI', 'SushiSwap', 'sushi', 'SUSHI-USD'),
  t('YFI', 'yearn.finance', 'yearn-finance', 'YFI-USD'),
  t('BAL', 'Balancer', 'balancer', 'BAL-USD'),
  t('1INCH', '1inch', '1inch', '1INCH-USD'),
  t('ENS', 'Ethereum Name Service', 'ethereum-name-service', 'ENS-USD'),
  t('GRT', 'The Graph', 'the-graph', 'GRT-USD'),
  t('RPL', 'Rocket Pool', 'rocket-pool', 'RPL-USD'),
  t('GNO', 'Gnosis', 'gnosis', 'GNO-USD'),
  t('ZRX', '0x Protocol', '0x', 'ZRX-USD'),
  t('BAT', 'Basic Attention Token', 'basic-attention-token', 'BAT-USD'),
  t('FRAX', 'Frax', 'frax'),
  t('LUSD', 'Liquity USD', 'liquity-usd'),
  t('PYUSD', 'PayPal USD', 'paypal-usd', 'PYUSD-USD'),
  t('GHO', 'GHO', 'gho'),
  t('SHIB', 'Shiba Inu', 'shiba-inu', 'SHIB-USD'),
  t('PEPE', 'Pepe', 'pepe', 'PEPE-USD'),
  t('APE', 'ApeCoin', 'apecoin', 'APE-USD'),
  t('IMX', 'Immutable', 'immutable-x', 'IMX-USD'),
  t('MANA', 'Decentraland', 'decentraland', 'MANA-USD'),
  t('SAND', 'The Sandbox', 'the-sandbox', 'SAND-USD'),
  t('AXS', 'Axie Infinity', 'axie-infinity', 'AXS-USD'),
  t('BLUR', 'Blur', 'blur', 'BLUR-USD'),
  t('RENDER', 'Render', 'render-token', 'RENDER-USD'),
  t('FET', 'Artificial Superintelligence Alliance', 'fetch-ai', 'FET-USD'),
  t('INJ', 'Injective', 'injective-protocol', 'INJ-USD'),
  t('TIA', 'Celestia', 'celestia', 'TIA-USD'),
  t('SEI', 'Sei', 'sei-network', 'SEI-USD'),
  t('STX', 'Stacks', 'blockstack', 'STX-USD'),
  t('PENDLE', 'Pendle', 'pendle'),
  t('ENA', 'Ethena', 'ethena'),
  t('EIGEN', 'EigenLayer', 'eigenlayer', 'EIGEN-USD'),
  t('AERO', 'Aerodrome Finance', 'aerodrome-finance', 'AERO-USD'),
  t('MORPHO', 'Morpho', 'morpho', 'MORPHO-USD'),
];

const BY_SYMBOL = new Map(TOKEN_LISTINGS.map((listing) => [listing.symbol, listing]));
const BY_COINGECKO_ID = new Map(TOKEN_LISTINGS.map((listing) => [listing.coingeckoId, listing]));

/**
 * The listing of a ticker, any case; undefined for a symbol the table does not hold.
 * @example findToken('eth')?.coingeckoId // 'ethereum'
 */
export function findToken(symbol: string): TokenListing | undefined {
  return BY_SYMBOL.get(symbol.trim().toUpperCase());
}

/**
 * The listing of a CoinGecko coin id, if the table holds it.
 * @example findTokenByCoingeckoId('ethereum')?.symbol // 'ETH'
 */
export function findTokenByCoingeckoId(id: string): TokenListing | undefined {
  return BY_COINGECKO_ID.get(id);
}

/**
 * Whether `symbol` has a ticker's syntax (not whether the table knows it).
 * @example isSymbolSyntax('1INCH') // true
 */
export function isSymbolSyntax(symbol: string): boolean {
  return SYMBOL_PATTERN.test(symbol);
}
