import type { FastifyInstance } from 'fastify';
import type { CompiledOperationRow } from '../../rest-compat/compile-routes.js';
import type { AppConfig } from '../config/config.js';
import { OperationTallies } from '../observability/operation-tallies.js';
import { registerApiRoutes } from './api-routes.js';
import { connectionShares, limitConnections } from './connection-limits.js';
import { registerCors } from './cors.js';
import { installErrorHandling } from './error-handler.js';
import { createFastifyServer } from './fastify-server.js';
import { graphiqlTabs } from './graphiql-tabs.js';
import type { HttpAppDeps } from './http-app-deps.js';
import { registerJsonBodyParser } from './json-body.js';
import { registerLandingPage } from './landing-page.js';
import { createHttpMetrics, registerMetrics } from './metrics.js';
import { registerHttpSpans } from './observability/http-spans.js';
import { publishedOperationNames } from './observability/published-operation-names.js';
import { registerRequestEntry } from './request-entry.js';
import { apiSecurityHeaders } from './security-headers.js';
import { uiAssets } from './ui-assets.js';

/**
 * What every request meets before its route: one error renderer, its span (when tracing), the JSON body parser, and
 * the one request entry hook (X-Request-Id, CORS, security headers, connection limits). Fills `answerHeaders` with
 * the security headers, for the answers written before any hook runs.
 */
async function installFrontDoor(
  app: FastifyInstance,
  config: AppConfig,
  answerHeaders: Record<string, string>,
): Promise<void> {
  installErrorHandling(app);
  const shares = connectionShares(config);
  const traceContextFrom = config.otel.traceContextFrom;
  registerHttpSpans(app, {
    trustsTraceContext: traceContextFrom === 'proxies' ? shares.isTrustedProxy : () => traceContextFrom === 'all',
  });
  registerJsonBodyParser(app);
  const cors = await registerCors(app, config.corsOrigins);
  Object.assign(answerHeaders, await apiSecurityHeaders());
  registerRequestEntry(app, { cors, securityHeaders: answerHeaders, refusal: limitConnections(app, shares) });
}

/** The operations /metrics reports by name: the REST rows' and the GraphiQL examples' (any other name is `other`). */
function operationTalliesOf(operations: readonly CompiledOperationRow[]): OperationTallies {
  return new OperationTallies(
    publishedOperationNames(
      operations,
      graphiqlTabs().map((tab) => tab.query),
    ),
  );
}

/**
 * The HTTP face of the service: REST rows, documents, /graphql, /mcp, /metrics, the landing page and UI assets, one
 * error renderer.
 * @example const app = await buildHttpApp(deps); await app.listen({ port: 3000 })
 */
export async function buildHttpApp(deps: HttpAppDeps): Promise<FastifyInstance> {
  // The security headers, once known: answers written before any hook runs get them too.
  const answerHeaders: Record<string, string> = {};
  const app = createFastifyServer(deps, answerHeaders);
  await installFrontDoor(app, deps.config, answerHeaders);
  const operationTallies = operationTalliesOf(deps.operations);
  registerMetrics(app, createHttpMetrics({ ...deps.observed, operations: operationTallies }), deps.config.metricsToken);
  await app.register(uiAssets, {});
  await registerLandingPage(app, { publicBaseUrl: deps.config.publicBaseUrl });
  await registerApiRoutes(app, deps, operationTallies);
  return app;
}
