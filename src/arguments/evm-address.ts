import { type Address, getAddress } from 'viem';
import { z } from 'zod';
import { EVM_ADDRESS_PATTERN } from '../config/evm-address-pattern.js';

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
 * An {@link evmAddress} in its EIP-55 checksummed form: what resolvers work with.
 * @example checksummedAddress.parse('0xd8da6bf26964af9d7eed9e03e53415d37aa96045') // '0xd8dA6BF2…6045'
 */
export const checksummedAddress = evmAddress.transform((value): Address => getAddress(value));
