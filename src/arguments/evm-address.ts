import { type Address, getAddress } from 'viem';
import { z } from 'zod';
import { EVM_ADDRESS_PATTERN } from '../config/evm-address-pattern.js';
import { BoundedMemo } from '../memo/bounded-memo.js';

export { EVM_ADDRESS_PATTERN };

/**
 * The syntax of an EVM address as an argument rule, with the message every surface refuses it with; no
 * description, for schemas (webhook filters) that document themselves.
 * @example evmAddressSyntax.safeParse('0x123').error?.issues[0]?.message // 'must be 0x followed by 40 hex digits'
 */
export const evmAddressSyntax = z.string().regex(EVM_ADDRESS_PATTERN, 'must be 0x followed by 40 hex digits');

/** A 0x address in any case (answers checksum it). */
export const evmAddress = evmAddressSyntax
  .describe('0x address, any case')
  .meta({ example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' });

/**
 * Checksummed forms already made, by the text asked: only valid addresses get in (42 characters), at most
 * CHECKSUMMED_MAX of them with their values, under 1.4 MiB. viem's own cache reorders its LRU map on every hit (four
 * map operations and two key strings per call, for its validity check and again for the checksum), and resolvers
 * checksum every wallet of every request.
 */
const CHECKSUMMED_MAX = 8192;
const checksummed = new BoundedMemo<string, Address>(CHECKSUMMED_MAX);

/**
 * An EVM address (0x and 40 hex digits, any case) in its EIP-55 checksummed form, as viem's `getAddress` gives it,
 * made once per address text; throws viem's InvalidAddressError for anything else, as `getAddress` does.
 * @example eip55Address('0xd8da6bf26964af9d7eed9e03e53415d37aa96045') // '0xd8dA6BF2…6045'
 */
export function eip55Address(address: string): Address {
  return checksummed.get(address, () => getAddress(address));
}

/**
 * An {@link evmAddress} in its EIP-55 checksummed form: what resolvers work with.
 * @example checksummedAddress.parse('0xd8da6bf26964af9d7eed9e03e53415d37aa96045') // '0xd8dA6BF2…6045'
 */
export const checksummedAddress = evmAddress.transform((value): Address => eip55Address(value));
