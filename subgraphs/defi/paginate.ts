import { MAX_OFFSET } from '../../src/arguments/defi-limits.js';
import { integerInRange, pageOffset } from '../../src/arguments/integer-range.js';
import { MAX_PAGE_LIMIT } from '../../src/arguments/pagination.js';
import { parseArgument } from '../../src/arguments/parse-argument.js';
import type { DefiPagination } from './types.js';

/** Checks SPEC's offset pagination arguments with the REST rules: limit 1–100, offset 0 to MAX_OFFSET. */
export function checkPage(limit: number, offset: number): void {
  parseArgument(integerInRange(1, MAX_PAGE_LIMIT), 'limit', limit);
  parseArgument(pageOffset(MAX_OFFSET), 'offset', offset);
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
