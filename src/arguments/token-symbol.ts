import { z } from 'zod';
import { SYMBOL_PATTERN } from '../sources/prices/token-symbols.js';

/** A ticker: 1–15 letters, digits, dots or dashes, any case. */
export const tokenSymbol = z
  .string()
  .regex(SYMBOL_PATTERN, 'must be 1–15 letters, digits, dots or dashes')
  .describe('token symbol (ticker), any case, e.g. ETH')
  .meta({ example: 'ETH' });
