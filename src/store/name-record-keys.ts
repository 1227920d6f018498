import type { NameRecordKeys, NameRecordKeysRemoval, NameRecordKeysUpdate } from './store.js';
import { assertCount } from './store-arguments.js';
import { StoreArgumentError } from './store-errors.js';

const NODE = /^0x[0-9a-f]{64}$/;

/** A namehash as the index keeps it (lower-case hex); refuses anything else, so no key holds braces or spaces. */
export function indexNode(node: string): string {
  const lower = node.toLowerCase();
  if (!NODE.test(lower)) throw new StoreArgumentError(`a node is a 32-byte hex namehash, got "${node}"`);
  return lower;
}

/** An update checked once for both backends: node normalized, limits and coin types whole numbers, keys deduplicated. */
export function checkedUpdate(update: NameRecordKeysUpdate): NameRecordKeysUpdate {
  assertCount('limits.texts', update.limits.texts, 0);
  assertCount('limits.coinTypes', update.limits.coinTypes, 0);
  for (const coinType of update.coinTypes) assertCount('coinType', coinType, 0);
  return {
    node: indexNode(update.node),
    texts: [...new Set(update.texts)],
    coinTypes: [...new Set(update.coinTypes)],
    contenthash: update.contenthash,
    limits: update.limits,
  };
}

/** A removal checked once for both backends: node normalized, coin types whole numbers, keys deduplicated. */
export function checkedRemoval(removal: NameRecordKeysRemoval): NameRecordKeysRemoval {
  for (const coinType of removal.coinTypes) assertCount('coinType', coinType, 0);
  return {
    node: indexNode(removal.node),
    texts: [...new Set(removal.texts)],
    coinTypes: [...new Set(removal.coinTypes)],
    contenthash: removal.contenthash,
  };
}

/** One indexed key of a name: its kind, key (coin type in decimal; '' for the content hash) and order. */
export interface IndexedKey {
  kind: 'text' | 'coin' | 'contenthash';
  key: string;
  seq: number;
}

/** A name's keys from its rows, in their order. */
export function keysOfRows(rows: readonly IndexedKey[]): NameRecordKeys {
  const sorted = [...rows].sort((a, b) => a.seq - b.seq);
  return {
    textKeys: sorted.filter((r) => r.kind === 'text').map((r) => r.key),
    coinTypes: sorted.filter((r) => r.kind === 'coin').map((r) => Number(r.key)),
    contentHash: sorted.some((r) => r.kind === 'contenthash'),
  };
}
