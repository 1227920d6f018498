import { z } from 'zod';
import { CHAINS, findChain } from '../src/config/chains.js';
import { isApiError } from '../src/errors/api-error.js';
import { normalizeEnsName } from '../src/sources/ens/ens-names.js';

/** A chain by name or ID from SPEC's table; anything else is INVALID_PARAMETER. */
export const chainParam = z
  .string()
  .trim()
  .refine((v) => findChain(v) !== undefined, {
    message: `must be one of ${CHAINS.map((c) => `${c.key} (${c.id})`).join(', ')}`,
  })
  .transform((v) => findChain(v)!.key)
  .describe('chain name or ID: ethereum, base, arbitrum, optimism, polygon (or 1, 8453, 42161, 10, 137)');

/** A 0x address in any case (answers checksum it). */
export const evmAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be 0x followed by 40 hex digits')
  .describe('0x address, any case')
  .meta({ example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' });

/** An ENS name normalised with ENSIP-15 (viem `normalize`); anything it refuses is INVALID_PARAMETER. */
export const ensNameParam = z.string().transform((value, ctx) => {
  try {
    return normalizeEnsName(value);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: isApiError(err) ? err.message : 'invalid ENS name' });
    return z.NEVER;
  }
});

/**
 * A comma-separated query value as a list of 1 to `max` entries, blanks dropped, each checked by `entry`.
 * @example commaSeparated(evmAddress, { max: 100, noun: 'addresses' })
 */
export function commaSeparated<T extends z.ZodType<unknown, string>>(entry: T, p: { max: number; noun: string }) {
  return z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    )
    .pipe(z.array(entry).min(1, `must name 1 to ${p.max} ${p.noun}`).max(p.max, `must name 1 to ${p.max} ${p.noun}`));
}
