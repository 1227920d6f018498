import { type Address, getAddress } from 'viem';
import { z } from 'zod';

/** `0x` and 40 hex digits, any case: the syntax of an EVM address. */
export const EVM_ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;

/** A 0x address in any case (answers checksum it). */
export const evmAddress = z
  .string()
  .regex(EVM_ADDRESS_PATTERN, 'must be 0x followed by 40 hex digits')
  .describe('0x address, any case')
  .meta({ example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' });

/**
 * An {@link evmAddress} in its EIP-55 checksummed form: what resolvers work with.
 * @example checksummedAddress.parse('0xd8da6bf26964af9d7eed9e03e53415d37aa96045') // '0xd8dA6BF2…6045'
 */
export const checksummedAddress = evmAddress.transform((value): Address => getAddress(value));
