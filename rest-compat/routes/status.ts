import 'reflect-metadata';
import { z } from 'zod';
import { chainOrDefault } from '../../src/arguments/chain.js';
import { AccountResolver } from '../../subgraphs/account/resolvers.js';
import { ChainResolver } from '../../subgraphs/chain/resolvers.js';
import { rootField } from '../root-field.js';
import type { RouteRow } from '../route-row.js';

/** Always-free status and discovery routes (docs/api-contract.md#payment-and-discovery). */
export const statusRoutes: RouteRow[] = [
  {
    kind: 'operation',
    id: 'getHealth',
    tool: 'get_health',
    method: 'GET',
    path: '/api/health',
    tag: 'Status',
    summary: 'Service health',
    description: 'Readiness: 503 `SERVICE_UNAVAILABLE` (naming the store) while the store does not answer.',
    tier: 'free',
    field: rootField(ChainResolver.prototype.health),
    errors: [503],
  },
  {
    kind: 'operation',
    id: 'getSourcesHealth',
    tool: 'get_sources_health',
    method: 'GET',
    path: '/api/sources/health',
    tag: 'Status',
    summary: 'Each data source: live or local, up, degraded or down, last latency',
    tier: 'free',
    field: rootField(ChainResolver.prototype.sourcesHealth),
  },
  {
    kind: 'operation',
    id: 'getGasPrices',
    tool: 'get_gas_prices',
    method: 'GET',
    path: '/api/gas',
    tag: 'Free',
    summary: 'Gas prices (EIP-1559 slow, standard, fast) from the fee history of the last 20 blocks',
    tier: 'free',
    params: { query: z.object({ chain: chainOrDefault }) },
    field: rootField(ChainResolver.prototype.gasPrices),
    maxAge: 12,
  },
  {
    kind: 'operation',
    id: 'getX402Configuration',
    tool: 'get_x402_configuration',
    method: 'GET',
    path: '/.well-known/x402',
    tag: 'x402',
    summary: 'x402 payment configuration: receiver, asset (USDC on Base), network, facilitator, priced routes',
    tier: 'free',
    field: rootField(AccountResolver.prototype.x402Config),
  },
];
