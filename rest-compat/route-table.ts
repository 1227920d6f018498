import { documentRoutes } from './routes/documents.js';
import { priceRoutes } from './routes/prices.js';
import { statusRoutes } from './routes/status.js';
import type { RouteTable } from './route-row.js';

/** Every documented path the server answers; nothing is served that is not a row here (plus /graphql, /metrics). */
export const ROUTE_TABLE: RouteTable = {
  rows: [...statusRoutes, ...priceRoutes, ...documentRoutes],
};
