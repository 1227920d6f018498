import type { Address } from 'viem';

/** SLIP-44 coin type of Ethereum (ENSIP-9): its primary names live under addr.reverse. */
export const ETH_COIN_TYPE = 60n;

/**
 * ENSIP-11: the coin type of an EVM chain other than Ethereum mainnet, 0x80000000 | chainId.
 * @example evmChainCoinType(8453) // 0x80002105n (Base)
 */
export function evmChainCoinType(chainId: number): bigint {
  return 0x8000_0000n | BigInt(chainId);
}

/** Base's coin type (0x80002105): Basenames' ReverseRegistrar writes primary names under 80002105.reverse. */
export const BASE_COIN_TYPE = evmChainCoinType(8453);

/**
 * ENSIP-19: the reverse name holding an address's primary name for a coin type, `<hex address>.addr.reverse` for
 * Ethereum and `<hex address>.<hex coin type>.reverse` for the others (lower case, no 0x).
 * @example reverseNameOf('0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc', BASE_COIN_TYPE) // '9965…a4dc.80002105.reverse'
 */
export function reverseNameOf(address: Address, coinType: bigint): string {
  return `${address.toLowerCase().slice(2)}.${reverseNamespaceLabel(coinType)}.reverse`;
}

/**
 * The label under `reverse` that a coin type's reverse names sit in: `addr` for Ethereum, else the hex coin type.
 * @example reverseNamespaceLabel(BASE_COIN_TYPE) // '80002105'
 */
export function reverseNamespaceLabel(coinType: bigint): string {
  return coinType === ETH_COIN_TYPE ? 'addr' : coinType.toString(16);
}
