/**
 * The contract's exception to its offset pagination (docs/api-contract.md#other-constants) (pagination.ts) for
 * protocols and yields: "limit default 20 (50 on ENS
 * domains, protocols and yields), maximum 100"; events and upcoming unlocks keep the default of 20.
 */
export const DEFAULT_DEFI_PAGE = 50;
/** Offsets beyond this are refused: no list the service pages through is that long. */
export const MAX_OFFSET = 1_000_000;
/** Upcoming unlocks: how far ahead a caller may look, in days (10 years). */
export const MAX_UPCOMING_DAYS = 3650;
/** Days of daily TVL history a protocol's stats carry. */
export const PROTOCOL_HISTORY_DAYS = 30;

/** A protocol as a caller names it: DefiLlama's slug (`aave-v3`) or its display name (`AAVE V3`). */
export const PROTOCOL_NAME = /^[A-Za-z0-9][A-Za-z0-9 .&+_()-]{0,79}$/;
/** Event kinds of GET /api/events. */
export const EVENT_TYPES = ['hack', 'raise'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** A chain as DefiLlama names it in events (Ethereum, Base, Sui …). */
export const EVENT_CHAIN = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,39}$/;
