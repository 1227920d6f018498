import { z } from 'zod';
import { EVENT_CHAIN, EVENT_TYPES, PROTOCOL_NAME } from './defi-limits.js';

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
