import { LRUCache } from 'lru-cache';
import type { Hex } from 'viem';
import { labelhash as viemLabelhash, namehash as viemNamehash, normalize as viemNormalize } from 'viem/ens';

// ENS names repeat from request to request (the same profiles, their parents, reverse names): each of these pure
// functions costs keccak rounds or ENSIP-15 tables per call, so their answers are kept for the most recent names.
const MAX_NAMES = 20_000;
const namehashes = new LRUCache<string, Hex>({ max: MAX_NAMES });
const labelhashes = new LRUCache<string, Hex>({ max: MAX_NAMES });
const normalized = new LRUCache<string, string>({ max: MAX_NAMES });

/**
 * viem's `namehash` (ENSIP-1), remembered for recent names.
 * @example namehash('alice.eth') // '0x787192fc…'
 */
export function namehash(name: string): Hex {
  let hash = namehashes.get(name);
  if (hash === undefined) {
    hash = viemNamehash(name);
    namehashes.set(name, hash);
  }
  return hash;
}

/**
 * viem's `labelhash`, remembered for recent labels.
 * @example labelhash('alice') // keccak256('alice')
 */
export function labelhash(label: string): Hex {
  let hash = labelhashes.get(label);
  if (hash === undefined) {
    hash = viemLabelhash(label);
    labelhashes.set(label, hash);
  }
  return hash;
}

/**
 * viem's ENSIP-15 `normalize`, remembered for recent inputs; throws as it does for a name that cannot be normalised
 * (those are not remembered).
 * @example normalize('Alice.ETH') // 'alice.eth'
 */
export function normalize(name: string): string {
  let value = normalized.get(name);
  if (value === undefined) {
    value = viemNormalize(name);
    normalized.set(name, value);
  }
  return value;
}
