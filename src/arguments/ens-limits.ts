/**
 * Most names in one batch lookup (GET /api/ens/batch, POST /api/ens/bulk, ensBatch, ensProfiles): 100 resolutions
 * fit one Multicall3 `eth_call` (≈ 80 KB of calldata, a few million gas), and SPEC caps list sizes at 100 elsewhere.
 */
export const MAX_ENS_BATCH = 100;

/** SPEC "Offset pagination": ENS domains default to 50 per page, at most 100. */
export const DEFAULT_DOMAINS_LIMIT = 50;
export const MAX_DOMAINS_LIMIT = 100;
/** Offsets beyond this list nothing an address could hold (the ENS subgraph's page of 1000). */
export const MAX_DOMAINS_OFFSET = 100_000;
