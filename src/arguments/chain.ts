import { z } from 'zod';
import { CHAINS, findChain } from '../config/chains.js';

/** The chains as the refusal lists them: `ethereum (1), base (8453), …`. */
const CHOICES = CHAINS.map((c) => `${c.key} (${c.id})`).join(', ');

/**
 * A chain by name or ID from the supported chains (CHAINS, docs/api-contract.md#supported-chains); anything else is
 * INVALID_PARAMETER. Parses to the chain's key.
 * @example chainName.parse('8453') // 'base'
 */
export const chainName = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const chain = findChain(value);
    if (chain) return chain.key;
    ctx.addIssue({ code: 'custom', message: `must be one of ${CHOICES}` });
    return z.NEVER;
  })
  .describe(`chain name or ID: ${CHAINS.map((c) => c.key).join(', ')} (or ${CHAINS.map((c) => c.id).join(', ')})`);

/** The chain a chain-scoped read uses when none is named. */
export const DEFAULT_CHAIN = 'ethereum';

/**
 * A {@link chainName}, Ethereum when absent: the `chain` of the wallet, gas and chain-utility reads.
 * @example chainOrDefault.parse(undefined) // 'ethereum'
 */
export const chainOrDefault = chainName
  .default(DEFAULT_CHAIN)
  .describe(`${chainName.description} (default ${DEFAULT_CHAIN})`);
