import { ArgsType, Field } from 'type-graphql';
import type { Address } from 'viem';
import { argumentOptions } from '../../src/arguments/argument-options.js';
import { chainName, chainOrDefault } from '../../src/arguments/chain.js';
import { checksummedAddress } from '../../src/arguments/evm-address.js';
import { parseArgument } from '../../src/arguments/parse-argument.js';
import type { ChainKey } from '../../src/config/chains.js';

/** The arguments of a chain utility that reads one address: the address, and the chain (Ethereum by default). */
@ArgsType()
export class AddressOnChainArgs {
  @Field(() => String, argumentOptions(chainOrDefault)) chain!: string;
  @Field(() => String) address!: string;
}

/**
 * The address checksummed and the chain's key; 400 INVALID_PARAMETER naming `address`, else `chain`, when one is not
 * valid.
 * @example addressOnChain({ chain: '8453', address: '0xd8da6bf26964af9d7eed9e03e53415d37aa96045' }) // { address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', key: 'base' }
 */
export function addressOnChain(args: AddressOnChainArgs): { address: Address; key: ChainKey } {
  const address = parseArgument(checksummedAddress, 'address', args.address);
  return { address, key: parseArgument(chainName, 'chain', args.chain) };
}
