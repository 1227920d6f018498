import { invalidParameter } from '../../src/errors/api-error.js';
import { MAX_OFFSET, MAX_PAGE_LIMIT } from './limits.js';
import type { DefiPagination } from './types.js';

/** Checks SPEC's offset pagination arguments: limit 1–100, offset 0 or more; anything else is a 400. */
export function checkPage(limit: number, offset: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT)
    throw invalidParameter(`limit must be an integer from 1 to ${MAX_PAGE_LIMIT}`);
  if (!Number.isInteger(offset) || offset < 0 || offset > MAX_OFFSET)
    throw invalidParameter(`offset must be an integer from 0 to ${MAX_OFFSET}`);
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
