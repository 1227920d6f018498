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

/** Labels of ASCII letters, digits and hyphens only: what nearly every name asked for is made of. */
const ASCII_LDH_NAME = /^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*$/;

/**
 * ENSIP-15 on a name of ASCII letters, digits and hyphens, without its tables: every such character is valid and maps
 * to itself lower-cased, and the one rule left for an ASCII label is that it does not start with `??--` (a label
 * extension, e.g. `xn--`). Undefined for any other name (and for a label extension, so the full normaliser words the
 * error): those go to the full normaliser, whose tables take ~0.5 s to build the first time.
 * test/unit/ens-normalize-ascii.test.ts compares it with viem's `normalize` on names of every shape it accepts.
 * @example asciiNormalize('Alice.ETH') // 'alice.eth'
 */
export function asciiNormalize(name: string): string | undefined {
  if (!ASCII_LDH_NAME.test(name)) return undefined;
  const lower = name.toLowerCase();
  for (const label of lower.split('.')) if (label[2] === '-' && label[3] === '-') return undefined;
  return lower;
}

/**
 * viem's ENSIP-15 `normalize`, remembered for recent inputs; throws as it does for a name that cannot be normalised
 * (those are not remembered). Plain ASCII names skip the normaliser's tables ({@link asciiNormalize}).
 * @example normalize('Alice.ETH') // 'alice.eth'
 */
export function normalize(name: string): string {
  let value = normalized.get(name);
  if (value === undefined) {
    value = asciiNormalize(name) ?? viemNormalize(name);
    normalized.set(name, value);
  }
  return value;
}

/**
 * Builds the full normaliser's tables now (~0.5 s of CPU the first time, nothing after), so that the first name
 * outside ASCII is not the one that pays for them: the server calls it once it listens, when it is idle.
 */
export function warmEnsNormalizer(): void {
  try {
    viemNormalize('ö.eth');
  } catch {
    // Only the tables were wanted.
  }
}
