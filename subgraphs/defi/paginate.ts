import type { z } from 'zod';
import { defiListLimit, defiOffset } from '../../src/arguments/defi-arguments.js';
import { parseArgument } from '../../src/arguments/parse-argument.js';
import type { DefiPagination } from './types.js';

/**
 * Checks the contract's offset pagination arguments (docs/api-contract.md#pagination) with the rules of the REST row:
 * the list's limit (protocols' and pools'
 * unless `limitRule` says otherwise, e.g. eventsLimit), offset 0 to MAX_OFFSET.
 * @example checkPage(101, 0) // throws 'parameter limit: must be an integer from 1 to 100'
 */
export function checkPage(limit: number, offset: number, limitRule: z.ZodType = defiListLimit): void {
  parseArgument(limitRule, 'limit', limit);
  parseArgument(defiOffset, 'offset', offset);
}

/**
 * One page of a list held in full (the upstream answers the whole list in one reply, cached for its freshness).
 * @example paginate([1, 2, 3], 2, 0) // { data: [1, 2], pagination: { limit: 2, offset: 0, total: 3, hasMore: true } }
 */
export function paginate<T>(
  items: readonly T[],
  limit: number,
  offset: number,
): { data: T[]; pagination: DefiPagination } {
  checkPage(limit, offset);
  return {
    data: items.slice(offset, offset + limit),
    pagination: { limit, offset, total: items.length, hasMore: offset + limit < items.length },
  };
}
