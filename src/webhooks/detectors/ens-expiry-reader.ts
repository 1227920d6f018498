import type { ChainRpcClient } from '../../sources/rpc/chain-clients.js';
import { type EnsEventContracts, ethLabel, tokenIdOf } from './ens-log-events.js';
import type { EnsNameBook } from './ens-name-book.js';

const nameExpiresAbi = [
  {
    type: 'function',
    name: 'nameExpires',
    stateMutability: 'view',
    inputs: [{ name: 'id', type: 'uint256' }],
    outputs: [{ type: 'uint256' }],
  },
] as const;

/**
 * Reads from the registrar, once each, the expiry of exact .eth names webhooks filter on whose expiry no registrar log
 * in view has told, into the name book.
 * @example await ensExpiryReader({ client, contracts, book })(['alice.eth'])
 */
export function ensExpiryReader(p: {
  client: ChainRpcClient;
  contracts: EnsEventContracts;
  book: EnsNameBook;
}): (names: readonly string[]) => Promise<void> {
  const read = new Set<string>();
  return async (names) => {
    for (const name of names) {
      const label = ethLabel(name, 'eth');
      if (!label || p.book.expiries.has(name) || read.has(name)) continue;
      read.add(name);
      const expires = await p.client
        .readContract({
          address: p.contracts.registrar,
          abi: nameExpiresAbi,
          functionName: 'nameExpires',
          args: [tokenIdOf(label)],
        })
        .catch(() => 0n);
      if (expires > 0n) p.book.learnLabel(label, Number(expires));
    }
  };
}
