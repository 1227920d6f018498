/** FIDs are uint64 on chain; Neynar and GraphQL's Int both stop at 2^31 − 1, far above any FID issued. */
export const MAX_FID = 2_147_483_647;

/**
 * Lists (casts, followers, following) page by the contract's offset pagination (docs/api-contract.md#pagination)
 * (pagination.ts): "The pagination list also
 * names /api/farcaster/user/{fid}/casts and /api/farcaster/user/{fid}/followers (default limit 20, max 100)".
 * Offsets are walked through upstream cursors page by page; deeper than this costs too many upstream calls. */
export const MAX_OFFSET = 1000;

/** Neynar's user search answers at most 10 users per call. */
export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 10;
export const MAX_SEARCH_QUERY_LENGTH = 100;

/** Casts shown with a user by default (`recentCasts`). */
export const DEFAULT_RECENT_CASTS = 5;
