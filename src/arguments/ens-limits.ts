/**
 * Most names in one batch lookup (GET /api/ens/batch, POST /api/ens/bulk, ensBatch, ensProfiles): 100 resolutions
 * fit one Multicall3 `eth_call` (≈ 80 KB of calldata, a few million gas). The contract leaves the size of a batch open
 * (docs/api-contract.md#other-constants)
 * ("Maximum size of a batch (names, addresses, symbols, requests): not shown").
 */
export const MAX_ENS_BATCH = 100;

/**
 * The contract's exception to its offset pagination (docs/api-contract.md#other-constants) (pagination.ts) for ENS
 * domains: "limit default 20 (50 on ENS domains,
 * protocols and yields), maximum 100"; GET /api/ens/domains/{address} takes "limit (default 50, max 100)".
 */
export const DEFAULT_DOMAINS_LIMIT = 50;
/** Offsets beyond this list nothing an address could hold (the ENS subgraph's page of 1000). */
export const MAX_DOMAINS_OFFSET = 100_000;

/**
 * Most text keys, and most coin types, one profile read asks besides its own records: every name of a batch asks
 * them all in the same Universal Resolver call, so 100 names × 20 keys stay one `eth_call` of a few thousand calls.
 */
export const MAX_ENS_TEXT_KEYS = 20;
export const MAX_ENS_COIN_TYPES = 20;
/** ENSIP-5 keys are short (`com.twitter`, `org.example.custom`); ours follow the subname registration's bound. */
export const MAX_ENS_TEXT_KEY_LENGTH = 256;
