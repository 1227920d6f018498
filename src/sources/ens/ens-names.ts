import { normalize } from './name-hashes.js';

/**
 * Whether a name read from the chain (a primary name) is already in ENSIP-15 normalised form; one that is not is
 * never shown, as ENS's own clients refuse it.
 * @example isNormalizedEnsName('Alice.eth') // false
 */
export function isNormalizedEnsName(name: string): boolean {
  try {
    return normalize(name) === name;
  } catch {
    return false;
  }
}

/**
 * The second-level label of a name under .eth (whose registrar holds registrant and expiry), else undefined.
 * @example ethSecondLevelLabel('pay.alice.eth') // 'alice'
 */
export function ethSecondLevelLabel(name: string): string | undefined {
  const labels = name.split('.');
  return labels.length >= 2 && labels.at(-1) === 'eth' ? labels.at(-2) : undefined;
}
