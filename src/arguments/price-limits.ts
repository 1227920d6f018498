/** CoinGecko's free and demo plans serve up to 365 days of history. */
export const MAX_HISTORY_DAYS = 365;
export const DEFAULT_HISTORY_DAYS = 7;

/**
 * CoinGecko's trending list holds 15 coins: 10 by default; a caller may ask up to the contract's page maximum
 * (docs/api-contract.md#pagination) (pagination.ts).
 */
export const DEFAULT_TRENDING_LIMIT = 10;
