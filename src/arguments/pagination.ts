/**
 * docs/api-contract.md#pagination: "Query parameters: limit (integer, default 20, maximum 100) and offset (integer,
 * default 0)." docs/api-contract.md#other-constants says it again with its exceptions: "Offset pagination: limit
 * default 20 (50 on
 * ENS domains, protocols and yields), maximum 100, offset default 0." These are the one declaration of that rule; a
 * domain's limits file states only where its lists depart from it (ens-limits, defi-limits: default 50).
 */
export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;
export const DEFAULT_PAGE_OFFSET = 0;
