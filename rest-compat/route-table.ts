import type { RouteTable } from './route-row.js';
import { accountRoutes } from './routes/account.js';
import { batchRoutes } from './routes/batch.js';
import { ccipRoutes } from './routes/ccip.js';
import { chainUtilityRoutes } from './routes/chain-utilities.js';
import { defiRoutes } from './routes/defi.js';
import { documentRoutes } from './routes/documents.js';
import { ensRoutes } from './routes/ens.js';
import { farcasterRoutes } from './routes/farcaster.js';
import { priceRoutes } from './routes/prices.js';
import { statusRoutes } from './routes/status.js';
import { walletRoutes } from './routes/wallet.js';
import { webhookRoutes } from './routes/webhooks.js';

/** Every documented path the server answers; nothing is served that is not a row here (plus /graphql, /metrics, and /mcp, whose tools are these rows). */
export const ROUTE_TABLE: RouteTable = {
  rows: [
    ...statusRoutes,
    ...priceRoutes,
    ...farcasterRoutes,
    ...accountRoutes,
    ...defiRoutes,
    ...batchRoutes,
    ...walletRoutes,
    ...chainUtilityRoutes,
    ...ensRoutes,
    ...ccipRoutes,
    ...webhookRoutes,
    ...documentRoutes,
  ],
};
