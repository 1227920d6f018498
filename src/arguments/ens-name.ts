import { z } from 'zod';
import { isApiError } from '../errors/api-error.js';
import { normalizeEnsName } from '../sources/ens/ens-names.js';

/** An ENS name normalised with ENSIP-15 (viem `normalize`); anything it refuses is INVALID_PARAMETER. */
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
