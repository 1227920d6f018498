import 'reflect-metadata';
import { z } from 'zod';
import {
  defiListLimit,
  defiOffset,
  eventChainFilter,
  eventsLimit,
  eventTypeFilter,
  poolChainFilter,
  poolProjectFilter,
  protocolName,
  upcomingDays,
} from '../../src/arguments/defi-arguments.js';
import { evmAddress } from '../../src/arguments/evm-address.js';
import { DefiEventsResolver } from '../../subgraphs/defi/event-resolvers.js';
import { DefiResolver } from '../../subgraphs/defi/resolvers.js';
import { rootField } from '../root-field.js';
import type { RouteRow } from '../route-row.js';

/** docs/api-contract.md#data-freshness: DeFi TVL 5 minutes; a shared cache may keep an answer that long. */
const DEFI_MAX_AGE_SECONDS = 300;

const walletAddress = evmAddress
  .describe('wallet address')
  .meta({ example: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045' });

/**
 * docs/api-contract.md#market-wallet-and-utilities: DeFi protocols, yields and positions; active users; protocol
 * events.
 */
export const defiRoutes: RouteRow[] = [
  {
    kind: 'operation',
    id: 'listDefiProtocols',
    tool: 'list_defi_protocols',
    method: 'GET',
    path: '/api/defi/protocols',
    tag: 'DeFi',
    summary: 'DeFi protocols by TVL, largest first, with 1 h / 1 d / 7 d changes (DefiLlama)',
    description:
      "Offset pagination over DefiLlama's whole protocol list, which the service fetches at most once per 5 minutes and pages itself.",
    tier: 'medium',
    params: { query: z.object({ limit: defiListLimit, offset: defiOffset }) },
    field: rootField(DefiResolver.prototype.defiProtocols),
    maxAge: DEFI_MAX_AGE_SECONDS,
  },
  {
    kind: 'operation',
    id: 'getDefiProtocol',
    tool: 'get_defi_protocol',
    method: 'GET',
    path: '/api/defi/protocol/{name}',
    tag: 'DeFi',
    summary: 'One protocol: TVL now and per chain, changes, market cap and 30 days of daily TVL (DefiLlama)',
    tier: 'medium',
    params: { path: z.object({ name: protocolName }) },
    field: rootField(DefiResolver.prototype.defiProtocol),
    notFound: 'DefiLlama lists no protocol by this name',
    maxAge: DEFI_MAX_AGE_SECONDS,
  },
  {
    kind: 'operation',
    id: 'listYields',
    tool: 'list_yields',
    method: 'GET',
    path: '/api/yields',
    tag: 'DeFi',
    summary: 'Yield pools by TVL, largest first, with base and reward APY (DefiLlama yields)',
    tier: 'medium',
    params: {
      query: z.object({
        limit: defiListLimit,
        offset: defiOffset,
        chain: poolChainFilter,
        project: poolProjectFilter,
      }),
    },
    field: rootField(DefiResolver.prototype.defiYields),
    maxAge: DEFI_MAX_AGE_SECONDS,
  },
  {
    kind: 'operation',
    id: 'getDefiPositions',
    tool: 'get_defi_positions',
    method: 'GET',
    path: '/api/defi/positions/{address}',
    tag: 'DeFi',
    summary: "A wallet's DeFi positions on every chain: supplied, borrowed, rewards, health factor (DeBank)",
    tier: 'medium',
    params: { path: z.object({ address: walletAddress }) },
    field: rootField(DefiResolver.prototype.defiPositions),
    maxAge: DEFI_MAX_AGE_SECONDS,
  },
  {
    kind: 'operation',
    id: 'getActiveUsers',
    tool: 'get_active_users',
    method: 'GET',
    path: '/api/active-users',
    tag: 'Chain',
    summary: 'Daily and 7-day active addresses per chain (growthepie)',
    description:
      'Distinct addresses that sent a transaction on the latest measured UTC day, and over the 7 days ending that day, as growthepie counts them from each chain. A chain growthepie does not measure is left out.',
    tier: 'medium',
    price: '0.01',
    field: rootField(DefiEventsResolver.prototype.activeUsers),
    maxAge: 900,
  },
  {
    kind: 'operation',
    id: 'listEvents',
    tool: 'list_events',
    method: 'GET',
    path: '/api/events',
    tag: 'DeFi',
    summary: 'Recent protocol events, newest first: exploits (hack) and funding rounds (raise), from DefiLlama',
    description:
      '`results` is one page (`limit`, `offset`) of the events matching `type` and `chain`; `total` counts them all. Amounts are USD (DefiLlama gives raises in millions; they are converted).',
    tier: 'medium',
    params: {
      query: z.object({
        type: eventTypeFilter,
        chain: eventChainFilter,
        limit: eventsLimit,
        offset: defiOffset,
      }),
    },
    field: rootField(DefiEventsResolver.prototype.defiEvents),
    maxAge: DEFI_MAX_AGE_SECONDS,
  },
  {
    kind: 'operation',
    id: 'listUpcomingEvents',
    tool: 'list_upcoming_events',
    method: 'GET',
    path: '/api/events/upcoming',
    tag: 'DeFi',
    summary: 'Upcoming events: the next scheduled token unlocks, soonest first (DefiLlama emissions)',
    description:
      "`data.unlocks` lists each token's next unlock after now (within `days` when given): tokens, percent of the circulating supply and an estimated USD value at today's price.",
    tier: 'medium',
    params: {
      query: z.object({ days: upcomingDays, limit: eventsLimit }),
    },
    field: rootField(DefiEventsResolver.prototype.upcomingEvents),
    maxAge: DEFI_MAX_AGE_SECONDS,
  },
];
