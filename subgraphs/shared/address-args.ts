/** Argument checks shared by the wallet and chain subgraphs: GraphQL callers skip the REST schemas. */
import { type Address, getAddress, isAddress } from 'viem';
import { CHAINS, type ChainKey, findChain, type SupportedChain } from '../../src/config/chains.js';
import { invalidParameter } from '../../src/errors/api-error.js';

/** A 0x address in any case → EIP-55; anything else is INVALID_PARAMETER. */
export function addressArg(name: string, value: string): Address {
  if (typeof value !== 'string' || !isAddress(value, { strict: false }))
    throw invalidParameter(`${name} must be 0x followed by 40 hex digits`);
  return getAddress(value);
}

export function chainArg(value: string): SupportedChain & { key: ChainKey } {
  const chain = findChain(value);
  if (!chain) throw invalidParameter(`chain must be one of ${CHAINS.map((c) => c.key).join(', ')} (name or ID)`);
  return chain;
}

export function intArg(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max)
    throw invalidParameter(`${name} must be an integer from ${min} to ${max}`);
  return value;
}
