import { invalidParameter } from '../../errors/api-error.js';
import { normalize } from './name-hashes.js';

/** Longest name accepted (characters, before normalisation); ENS has no limit, DNS encoding caps each label. */
export const MAX_ENS_NAME_LENGTH = 512;
/** A DNS-encoded label carries its length in one byte. */
const MAX_LABEL_BYTES = 255;

/**
 * An ENS name normalised with ENSIP-15 (viem `normalize`), or INVALID_PARAMETER (400) naming the problem.
 * Needs at least two labels (`alice.eth`, not `eth`) and labels of at most 255 bytes.
 * @example normalizeEnsName('Alice.ETH') // 'alice.eth'
 */
export function normalizeEnsName(raw: string): string {
  const trimmed = raw.trim();
  if (trimmed === '' || trimmed.length > MAX_ENS_NAME_LENGTH) {
    throw invalidParameter(`ENS name must be 1 to ${MAX_ENS_NAME_LENGTH} characters`);
  }
  let name: string;
  try {
    name = normalize(trimmed);
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0] : 'not normalisable';
    throw invalidParameter(`invalid ENS name (ENSIP-15): ${reason}`);
  }
  const labels = name.split('.');
  if (labels.length < 2) throw invalidParameter('ENS name must have at least two labels, e.g. alice.eth');
  if (labels.some((l) => l === '' || new TextEncoder().encode(l).length > MAX_LABEL_BYTES)) {
    throw invalidParameter(`ENS name labels must be 1 to ${MAX_LABEL_BYTES} bytes`);
  }
  return name;
}

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
