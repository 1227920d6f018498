import { integerRangeMessage, pageLimit, pageOffset } from './integer-range.js';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from './pagination.js';
import { invalidArgument } from './parse-argument.js';

/**
 * A page of a wallet's list (transactions, NFTs): the contract's offset pagination (docs/api-contract.md#pagination), 1
 * to 100, 20 by default.
 * @example walletLimit.parse(undefined) // 20
 */
export const walletLimit = pageLimit(MAX_PAGE_LIMIT, DEFAULT_PAGE_LIMIT).describe(
  `items per page, 1 to ${MAX_PAGE_LIMIT} (default ${DEFAULT_PAGE_LIMIT})`,
);

type WindowOffset = ReturnType<typeof pageOffset>;
const windowOffsets = new Map<number, WindowOffset>();

/**
 * An offset into a window of `window` items (wallet-limits.ts), built once per window: 0 to `window` − 1; that
 * offset + limit stays within the window is {@link checkWithinWindow}'s, once the limit is known.
 * @example walletWindowOffset(1000).parse('40') // 40
 */
export function walletWindowOffset(window: number): WindowOffset {
  let rule = windowOffsets.get(window);
  if (rule === undefined) {
    rule = pageOffset(window - 1).describe(`items to skip (default 0); offset + limit may reach ${window}`);
    windowOffsets.set(window, rule);
  }
  return rule;
}

/**
 * Refuses a page that runs past its window (offset + limit above `window`) as INVALID_PARAMETER naming `offset`,
 * with the wording of `integerInRange(0, window - limit)`.
 * @example checkWithinWindow(990, 20, 1000) // throws 'parameter offset: must be an integer from 0 to 980'
 */
export function checkWithinWindow(offset: number, limit: number, window: number): void {
  if (offset + limit > window) throw invalidArgument('offset', integerRangeMessage(0, window - limit));
}
