/** SPEC "Data freshness": token prices 30 seconds. */
export const PRICE_FRESHNESS_MS = 30_000;
