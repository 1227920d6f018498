import { z } from 'zod';
import { invalidParameter, isApiError } from '../errors/api-error.js';
import { normalize } from '../sources/ens/name-hashes.js';

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
    // ENSIP-15's library marks quoted text with U+200E (left-to-right mark) for display; in a JSON message it is an
    // invisible character a client's comparison or log search trips over.
    const reason =
      err instanceof Error ? err.message.split('\n')[0]!.replace(/[\u200e\u200f]/g, '') : 'not normalisable';
    throw invalidParameter(`invalid ENS name (ENSIP-15): ${reason}`);
  }
  const labels = name.split('.');
  if (labels.length < 2) throw invalidParameter('ENS name must have at least two labels, e.g. alice.eth');
  if (labels.some((l) => l === '' || Buffer.byteLength(l, 'utf8') > MAX_LABEL_BYTES)) {
    throw invalidParameter(`ENS name labels must be 1 to ${MAX_LABEL_BYTES} bytes`);
  }
  return name;
}

/** An ENS name normalised with ENSIP-15 ({@link normalizeEnsName}); anything it refuses is INVALID_PARAMETER. */
export const ensName = z
  .string()
  .transform((value, ctx) => {
    try {
      return normalizeEnsName(value);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: isApiError(err) ? err.message : 'invalid ENS name' });
      return z.NEVER;
    }
  })
  .describe('ENS name (ENSIP-15 normalised; any case), e.g. alice.eth')
  .meta({ example: 'alice.eth' });
