/** docs/api-contract.md#data-freshness: token prices 30 seconds. */
export const PRICE_FRESHNESS_MS = 30_000;
