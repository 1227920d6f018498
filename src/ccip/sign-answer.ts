import { type Address, encodeAbiParameters, encodePacked, type Hex, keccak256 } from 'viem';
import { sign } from 'viem/accounts';

export interface OffchainAnswerParameters {
  /** The OffchainResolver that asked (the OffchainLookup's sender): the signature is valid for it alone. */
  resolver: Address;
  /** Unix seconds after which the resolver refuses the answer (`expires >= block.timestamp`). */
  expires: bigint;
  /** The calldata the resolver sent: `resolve(bytes name, bytes data)`, its OffchainLookup's callData. */
  request: Hex;
  /** The ABI-encoded record, as the inner resolver function returns it. */
  result: Hex;
}

export interface SignedOffchainAnswer {
  /** abi.encode(bytes result, uint64 expires, bytes sig): what `resolveWithProof(response, extraData)` decodes. */
  data: Hex;
  /** 65 bytes r ‖ s ‖ v over `messageHash`, with no EIP-191 prefix. */
  signature: Hex;
  messageHash: Hex;
}

/**
 * The hash ENS's SignatureVerifier recovers the signer from:
 * keccak256(0x1900 ‖ resolver ‖ uint64 expires ‖ keccak256(request) ‖ keccak256(result)).
 * @example offchainAnswerHash({ resolver, expires: 1700000000n, request, result }) // '0x803b…'
 */
export function offchainAnswerHash(p: OffchainAnswerParameters): Hex {
  return keccak256(
    encodePacked(
      ['bytes2', 'address', 'uint64', 'bytes32', 'bytes32'],
      ['0x1900', p.resolver, p.expires, keccak256(p.request), keccak256(p.result)],
    ),
  );
}

/**
 * Signs a gateway answer as @ensdomains/offchain-resolver-contracts verifies it: the raw digest (not signMessage),
 * a 65-byte signature (OpenZeppelin's ECDSA refuses 64-byte compact ones).
 * @example const { data } = await signOffchainAnswer({ resolver, expires, request, result }, signerKey)
 */
export async function signOffchainAnswer(p: OffchainAnswerParameters, privateKey: Hex): Promise<SignedOffchainAnswer> {
  const messageHash = offchainAnswerHash(p);
  const signature = await sign({ hash: messageHash, privateKey, to: 'hex' });
  const data = encodeAbiParameters(
    [{ type: 'bytes' }, { type: 'uint64' }, { type: 'bytes' }],
    [p.result, p.expires, signature],
  );
  return { data, signature, messageHash };
}
