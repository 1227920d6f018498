import type { FastifyInstance } from 'fastify';
import type { OperationTallies } from '../observability/operation-tallies.js';
import { registerBatchRoutes } from './batch-route.js';
import { registerDocumentRoutes } from './document-routes.js';
import { registerGraphqlRoute } from './graphql-route.js';
import type { HttpAppDeps } from './http-app-deps.js';
import { mcpAllowedHosts, registerMcpRoute } from './mcp/mcp-route.js';
import { observedGateway } from './observability/observe-operation.js';
import { ResponseCache } from './response-cache.js';
import { registerOperationRoutes } from './rest-routes.js';

/**
 * The API's routes: REST rows, documents, POST /mcp, POST /api/batch and /graphql, each surface's operations tallied
 * in `operationTallies` (/metrics), REST rows and the agent tools that run them sharing one micro-cache.
 * @example await registerApiRoutes(app, deps, operationTallies)
 */
export async function registerApiRoutes(
  app: FastifyInstance,
  deps: HttpAppDeps,
  operationTallies: OperationTallies,
): Promise<void> {
  const responseCache = new ResponseCache();
  registerOperationRoutes(app, {
    rows: deps.operations,
    gateway: observedGateway(deps.gateway, operationTallies, 'rest'),
    access: deps.access,
    contexts: deps.contexts,
    cache: responseCache,
    publicBaseUrl: deps.config.publicBaseUrl,
    discovery: deps.agents.httpDiscovery,
  });
  await registerDocumentRoutes(app, { documents: deps.documents, access: deps.access });
  registerMcpRoute(app, {
    tools: deps.agents.tools,
    resources: deps.agents.resources,
    access: deps.access,
    gateway: observedGateway(deps.gateway, operationTallies, 'mcp'),
    contexts: deps.contexts,
    cache: responseCache,
    allowedHosts: mcpAllowedHosts({
      publicBaseUrl: deps.config.publicBaseUrl,
      configured: deps.config.mcpAllowedHosts,
    }),
  });
  registerBatchRoutes(app, {
    table: deps.table,
    access: deps.access,
    publicBaseUrl: deps.config.publicBaseUrl,
    discovery: deps.agents.httpDiscovery,
  });
  await registerGraphqlRoute(app, {
    gateway: deps.gateway,
    access: deps.access,
    operations: deps.operations,
    contexts: deps.contexts,
    limits: deps.config.graphql,
    live: deps.config.live,
    defaultPriceUsd: deps.config.x402.defaultPriceUsd,
    publicBaseUrl: deps.config.publicBaseUrl,
    operationTallies,
    trustProxy: deps.config.trustProxy,
  });
}
