import { z } from 'zod';
import { chainName } from './chain.js';
import {
  DEFAULT_DEFI_PAGE,
  EVENT_CHAIN,
  EVENT_TYPES,
  MAX_OFFSET,
  MAX_UPCOMING_DAYS,
  PROTOCOL_NAME,
} from './defi-limits.js';
import { integerInRange, pageLimit, pageOffset } from './integer-range.js';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from './pagination.js';

/** A protocol by DefiLlama's slug (`aave-v3`) or its display name (`AAVE V3`). */
export const protocolName = z
  .string()
  .trim()
  .regex(PROTOCOL_NAME, 'must be 1–80 letters, digits, spaces or . & + _ ( ) -')
  .describe("DefiLlama's slug (aave-v3) or the protocol's name (AAVE V3), any case")
  .meta({ example: 'aave-v3' });

/** Only the pools of one protocol, by slug. */
export const protocolSlug = z
  .string()
  .trim()
  .regex(PROTOCOL_NAME, 'must be a protocol slug')
  .describe('only pools of this protocol slug, e.g. aave-v3');

/** Event kinds of GET /api/events. */
export const eventType = z
  .enum(EVENT_TYPES, { error: `must be one of ${EVENT_TYPES.join(', ')}` })
  .describe('hack or raise; both when omitted');

/** A chain as DefiLlama names it in events (Ethereum, Base, Sui …). */
export const eventChain = z
  .string()
  .trim()
  .regex(EVENT_CHAIN, 'must be a chain name')
  .describe('only events on this chain, e.g. Ethereum');

/**
 * A page size of 1 to the contract's maximum (docs/api-contract.md#pagination), `byDefault` when absent, as the DeFi
 * lists describe it.
 */
const defiPageLimit = (byDefault: number) =>
  pageLimit(MAX_PAGE_LIMIT, byDefault).describe(`items per page, 1 to ${MAX_PAGE_LIMIT} (default ${byDefault})`);

/**
 * A page of protocols or yield pools: 1 to 100, DEFAULT_DEFI_PAGE (50) when absent.
 * @example defiListLimit.parse(undefined) // 50
 */
export const defiListLimit = defiPageLimit(DEFAULT_DEFI_PAGE);

/**
 * A page of events or upcoming unlocks: the contract's default of 20 (docs/api-contract.md#pagination), 1 to 100.
 * @example eventsLimit.parse(undefined) // 20
 */
export const eventsLimit = defiPageLimit(DEFAULT_PAGE_LIMIT);

/**
 * Items of a DeFi list to skip: 0 to MAX_OFFSET, 0 when absent.
 * @example defiOffset.parse('50') // 50
 */
export const defiOffset = pageOffset(MAX_OFFSET).describe('items to skip (default 0)');

/**
 * Upcoming unlocks only within this many days: 1 to MAX_UPCOMING_DAYS, every upcoming one when absent.
 * @example upcomingDays.parse(undefined) // undefined
 */
export const upcomingDays = integerInRange(1, MAX_UPCOMING_DAYS)
  .optional()
  .describe(`only unlocks within this many days, 1 to ${MAX_UPCOMING_DAYS}`);

/** Filters of the DeFi lists: each optional, absent (or null on GraphQL) when every item is wanted. */
export const poolChainFilter = chainName.optional();
export const poolProjectFilter = protocolSlug.optional();
export const eventTypeFilter = eventType.optional();
export const eventChainFilter = eventChain.optional();
