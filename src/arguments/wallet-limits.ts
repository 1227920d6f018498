/**
 * A wallet's lists page by the contract's offset pagination (docs/api-contract.md#pagination) (pagination.ts), within
 * the windows their upstreams reach.
 */

/** Etherscan lists at most 10,000 records of an address (page × offset ≤ 10,000); we need one past the window. */
export const MAX_TRANSACTION_WINDOW = 9_999;

/** NFTs come 100 a page behind an opaque page key, walked from the start: at most 10 pages (1,000 NFTs) deep. */
export const MAX_NFT_WINDOW = 1_000;
