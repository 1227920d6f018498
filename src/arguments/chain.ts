import { z } from 'zod';
import { CHAINS, findChain } from '../config/chains.js';

/** A chain by name or ID from SPEC's table; anything else is INVALID_PARAMETER. Parses to the chain's key. */
export const chainName = z
  .string()
  .trim()
  .refine((v) => findChain(v) !== undefined, {
    message: `must be one of ${CHAINS.map((c) => `${c.key} (${c.id})`).join(', ')}`,
  })
  .transform((v) => findChain(v)!.key)
  .describe('chain name or ID: ethereum, base, arbitrum, optimism, polygon (or 1, 8453, 42161, 10, 137)');
