import { type Address, decodeAbiParameters, encodeDeployData, getAddress, type Hex, parseAbiParameters } from 'viem';
import type { ChainRpcClient } from './chain-clients.js';
import { loadContractArtifact } from './contract-artifacts.js';

/** eoa: no code · contract: code · delegated: an EOA whose code is an EIP-7702 delegation designator. */
export type AddressKind = 'eoa' | 'contract' | 'delegated';

export interface AddressKindReading {
  address: Address;
  kind: AddressKind;
  codeSize: number;
  /** The contract an EIP-7702 delegated EOA runs; null otherwise. */
  delegatedTo: Address | null;
}

/** EIP-7702: a delegated account's code is 0xef0100 followed by the 20-byte address it delegates to (23 bytes). */
const DELEGATION_PREFIX = 'ef0100';
const DELEGATION_SIZE = 23;

/**
 * The kind of every address in ONE `eth_call`: CodeSizeReader's creation code runs without being deployed (an
 * eth_call with no `to`) and returns each address's code size and first 32 bytes. Works on any EVM chain.
 * @example await readAddressKinds(client, ['0x7099…', '0xcA11…']) // [{ kind: 'eoa', … }, { kind: 'contract', … }]
 */
export async function readAddressKinds(
  client: ChainRpcClient,
  addresses: readonly Address[],
): Promise<AddressKindReading[]> {
  if (addresses.length === 0) return [];
  const { abi, bytecode } = loadContractArtifact('CodeSizeReader');
  const { data } = await client.call({ data: encodeDeployData({ abi, bytecode, args: [addresses] }) });
  if (!data) throw new Error('CodeSizeReader returned nothing');
  const [sizes, heads] = decodeAbiParameters(parseAbiParameters('uint256[] sizes, bytes32[] heads'), data);
  if (sizes.length !== addresses.length || heads.length !== addresses.length)
    throw new Error('CodeSizeReader answer has the wrong length');
  return addresses.map((address, i) => {
    const codeSize = Number(sizes[i]!);
    const head: Hex = heads[i]!;
    const delegated = codeSize === DELEGATION_SIZE && head.slice(2, 8).toLowerCase() === DELEGATION_PREFIX;
    return {
      address: getAddress(address),
      kind: codeSize === 0 ? 'eoa' : delegated ? 'delegated' : 'contract',
      codeSize,
      delegatedTo: delegated ? getAddress(`0x${head.slice(8, 48)}`) : null,
    };
  });
}
