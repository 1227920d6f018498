import { z } from 'zod';
import { EVM_ADDRESS_PATTERN } from './evm-address.js';

/** Longest calldata in a CCIP request (hex characters after 0x): 8 KiB, far above any ENS request. */
const MAX_CALLDATA_HEX = 16_384;

/**
 * The `sender` of an ERC-3668 request: the OffchainResolver that reverted with OffchainLookup.
 * @example ccipSender.parse('0x8464135c8F25Da09e49BC8782676a84730C318bC')
 */
export const ccipSender = z
  .string()
  .regex(EVM_ADDRESS_PATTERN, 'must be the 0x address of the resolver contract')
  .describe('the contract that reverted with OffchainLookup (ENS OffchainResolver)')
  .meta({ example: '0x8464135c8F25Da09e49BC8782676a84730C318bC' });

/**
 * The `data` of an ERC-3668 request: whole bytes of hex after 0x, at most 8 KiB.
 * @example ccipCalldata.parse('0x9061b923') // '0x9061b923'
 */
export const ccipCalldata = z
  .string()
  .max(MAX_CALLDATA_HEX + 2, 'is longer than 8 KiB')
  .regex(/^0x(?:[0-9a-fA-F]{2})*$/, 'must be 0x-prefixed hex calldata')
  .describe('the OffchainLookup callData: resolve(bytes name, bytes data) of ENSIP-10, hex')
  .meta({
    example:
      '0x9061b92300000000000000000000000000000000000000000000000000000000000000400000000000000000000000000000000000000000000000000000000000000080000000000000000000000000000000000000000000000000000000000000000a047465737403657468000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000243b3b57deeb4f647bea6caa36333c816d7b46fdcb05f9466ecacc140ea8c66faf15b3d9f100000000000000000000000000000000000000000000000000000000',
  });
