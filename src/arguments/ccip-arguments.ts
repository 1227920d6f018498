import { z } from 'zod';
import { EVM_ADDRESS_PATTERN } from './evm-address.js';

/**
 * An ERC-3668 request that answers on the embedded default: addr(dave.offchain.eth) through the OffchainResolver of
 * `offchain.eth`, the parent the gateway serves; the embedded default registers dave (src/embedded/demo-subnames.ts).
 */
export const CCIP_EXAMPLE_SENDER = '0x8464135c8F25Da09e49BC8782676a84730C318bC';
/** `resolve(dnsEncode('dave.offchain.eth'), addr(namehash('dave.offchain.eth')))`, as an OffchainLookup carries it. */
export const CCIP_EXAMPLE_CALLDATA =
  '0x9061b9230000000000000000000000000000000000000000000000000000000000000040000000000000000000000000000000000000000000000000000000000000008000000000000000000000000000000000000000000000000000000000000000130464617665086f6666636861696e03657468000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000243b3b57de5bc68583f27736b0f7f9f041c48bf71270072e9922b65ed4a38a11ceadca109000000000000000000000000000000000000000000000000000000000';

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
  .meta({ example: CCIP_EXAMPLE_SENDER });

/**
 * The `data` of an ERC-3668 request: whole bytes of hex after 0x, at most 8 KiB.
 * @example ccipCalldata.parse('0x9061b923') // '0x9061b923'
 */
export const ccipCalldata = z
  .string()
  .max(MAX_CALLDATA_HEX + 2, 'is longer than 8 KiB')
  .regex(/^0x(?:[0-9a-fA-F]{2})*$/, 'must be 0x-prefixed hex calldata')
  .describe('the OffchainLookup callData: resolve(bytes name, bytes data) of ENSIP-10, hex')
  .meta({ example: CCIP_EXAMPLE_CALLDATA });
