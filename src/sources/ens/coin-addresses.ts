import { getCoderByCoinName, getCoderByCoinType } from '@ensdomains/address-encoder';
import { bytesToHex, getAddress, type Hex, hexToBytes, isHex } from 'viem';

/** SLIP-44 coin type of ETH (ENSIP-9): the one `addr(bytes32)` answers. */
export const ETH_COIN = 60;
/** ENSIP-11: an EVM chain's coin type is 0x80000000 | chainId; chain ids fit in the 31 bits below. */
const EVM_COIN_FLAG = 0x8000_0000;
const MAX_COIN_TYPE = 0xffff_ffff;

export class InvalidCoinAddressError extends Error {
  override name = 'InvalidCoinAddressError';
}

/**
 * Whether a coin type's addresses are 20-byte EVM addresses: ETH (60) or an ENSIP-11 EVM chain.
 * @example isEvmCoinType(0x80002105) // true (Base)
 */
export function isEvmCoinType(coinType: number): boolean {
  return coinType === ETH_COIN || (coinType >= EVM_COIN_FLAG && coinType <= MAX_COIN_TYPE);
}

/**
 * A coin as callers name it → its coin type: a decimal coin type (`0`, `2147492101`), a coin name of ENS's
 * address-encoder (`btc`, `sol`, `base`, `op`, `arb1`), or an EVM chain as `eip155:<chain id>` (ENSIP-11); undefined
 * when it is none of these. Any EVM chain id is a coin type, even one the encoder has no name for.
 * @example coinTypeOf('btc') // 0
 * @example coinTypeOf('eip155:8453') // 2147492101
 */
export function coinTypeOf(coin: string): number | undefined {
  const text = coin.trim().toLowerCase();
  if (/^\d{1,10}$/.test(text)) {
    const value = Number(text);
    return value <= MAX_COIN_TYPE && coinName(value) !== undefined ? value : undefined;
  }
  const chain = /^eip155:(\d{1,10})$/.exec(text);
  if (chain) {
    const id = Number(chain[1]);
    if (id === 1) return ETH_COIN;
    return id > 0 && id < EVM_COIN_FLAG ? (EVM_COIN_FLAG | id) >>> 0 : undefined;
  }
  try {
    return getCoderByCoinName(text).coinType;
  } catch {
    return undefined;
  }
}

/**
 * The name ENS's address-encoder gives a coin type (`btc`, `base`), `eip155:<id>` for an EVM chain it does not name,
 * undefined for a coin type it cannot encode.
 * @example coinName(0x80002105) // 'base'
 */
export function coinName(coinType: number): string | undefined {
  try {
    return getCoderByCoinType(coinType).name;
  } catch {
    return isEvmCoinType(coinType) ? `eip155:${coinType - EVM_COIN_FLAG}` : undefined;
  }
}

/**
 * An address record's bytes (what `addr(bytes32,uint256)` returns) → the address as its chain writes it: an EIP-55
 * address for EVM coins, `bc1…` for BTC, base58 for SOL; null when empty or not decodable for that coin.
 * @example coinAddressText(0, '0x0014751e76e8199196d454941c45d1b3a323f1433bd6') // 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'
 */
export function coinAddressText(coinType: number, bytes: Hex): string | null {
  if (!isHex(bytes) || bytes === '0x') return null;
  if (isEvmCoinType(coinType)) return bytes.length === 42 ? getAddress(bytes) : null;
  try {
    return getCoderByCoinType(coinType).encode(hexToBytes(bytes));
  } catch {
    return null;
  }
}

/**
 * An address as its chain writes it → the bytes a resolver stores for the coin type (ENSIP-9).
 * @example coinAddressBytes(501, '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin') // '0x…' (32 bytes)
 */
export function coinAddressBytes(coinType: number, address: string): Hex {
  if (isEvmCoinType(coinType)) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new InvalidCoinAddressError('must be a 0x address');
    return address.toLowerCase() as Hex;
  }
  let bytes: Uint8Array;
  try {
    bytes = getCoderByCoinType(coinType).decode(address);
  } catch (err) {
    throw new InvalidCoinAddressError(`is not a ${coinName(coinType) ?? coinType} address: ${(err as Error).message}`);
  }
  if (bytes.length === 0) throw new InvalidCoinAddressError(`is not a ${coinName(coinType) ?? coinType} address`);
  return bytesToHex(bytes);
}
