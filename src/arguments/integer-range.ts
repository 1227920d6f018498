import { z } from 'zod';
import { DEFAULT_PAGE_OFFSET } from './pagination.js';

/**
 * Why an integer out of `min`..`max` is refused: the one wording of {@link integerInRange}, for a bound known only
 * per request (checked without building a schema).
 * @example integerRangeMessage(0, 980) // 'must be an integer from 0 to 980'
 */
export const integerRangeMessage = (min: number, max: number): string => `must be an integer from ${min} to ${max}`;

/**
 * An integer from `min` to `max`, given as a number (GraphQL) or its decimal text (a query string); anything
 * else, or out of range, is refused with one message.
 * @example integerInRange(1, 365).parse('7') // 7
 */
export function integerInRange(min: number, max: number) {
  const message = integerRangeMessage(min, max);
  return z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);
}

/**
 * A page size of 1 to `max`, `byDefault` when absent.
 * @example pageLimit(100, 20).parse(undefined) // 20
 */
export function pageLimit(max: number, byDefault: number) {
  return integerInRange(1, max).default(byDefault).describe(`how many, 1 to ${max} (default ${byDefault})`);
}

/**
 * How many items to skip, 0 to `max`, 0 when absent.
 * @example pageOffset(1000).parse('40') // 40
 */
export function pageOffset(max: number) {
  return integerInRange(0, max)
    .default(DEFAULT_PAGE_OFFSET)
    .describe(`how many to skip, 0 to ${max} (default ${DEFAULT_PAGE_OFFSET})`);
}
