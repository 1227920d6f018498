import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { CompiledOperationRow } from '../../rest-compat/compile-routes.js';
import type { RouteTable } from '../../rest-compat/route-row.js';
import type { ServedDocument } from '../../rest-compat/routes/documents.js';
import type { AccessGate } from '../access/access-gate.js';
import type { AppConfig } from '../config/config.js';
import type { InProcessGateway } from '../gateway/in-process-gateway.js';
import { requestLoggerFactory } from '../logging/request-logger.js';
import { OperationTallies } from '../observability/operation-tallies.js';
import { registerBatchRoutes } from './batch-route.js';
import { connectionOptions, connectionShares, limitConnections } from './connection-limits.js';
import { registerCors } from './cors.js';
import { clientErrorResponse, installErrorHandling, sendFrameworkError } from './error-handler.js';
import type { GraphContextFactory } from './graph-context-factory.js';
import { graphiqlTabs } from './graphiql-tabs.js';
import { registerGraphqlRoute } from './graphql-route.js';
import { registerJsonBodyParser } from './json-body.js';
import { registerLandingPage } from './landing-page.js';
import type { AgentSurface } from './mcp/agent-surface.js';
import { mcpAllowedHosts, registerMcpRoute } from './mcp/mcp-route.js';
import { createHttpMetrics, registerMetrics } from './metrics.js';
import { registerHttpSpans } from './observability/http-spans.js';
import { observedGateway } from './observability/observe-operation.js';
import type { OperatorMetricSources } from './observability/operator-metrics.js';
import { publishedOperationNames } from './observability/published-operation-names.js';
import { requestIdFor } from './request-id.js';
import { ResponseCache } from './response-cache.js';
import { fastifyPath, registerOperationRoutes } from './rest-routes.js';
import { runAdmitted } from './run-admitted.js';
import { htmlPageHeaders, registerSecurityHeaders } from './security-headers.js';
import { proxyTrust } from './trusted-proxies.js';
import { uiAssets } from './ui-assets.js';

export interface HttpAppDeps {
  config: AppConfig;
  logger: Logger;
  gateway: InProcessGateway;
  table: RouteTable;
  operations: readonly CompiledOperationRow[];
  /** Document rows with the bytes rendered at start. */
  documents: readonly ServedDocument[];
  /** MCP tools and resources (POST /mcp). */
  agents: AgentSurface;
  access: AccessGate;
  contexts: GraphContextFactory;
  /** What /metrics reports beyond HTTP: the server's tallies, its sources, its store's outbox. */
  observed: Omit<OperatorMetricSources, 'operations'>;
}

/** Request bodies are small JSON documents; 1 MiB bounds what a caller can make us parse. */
const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * The HTTP face of the service: REST rows, documents, /graphql, /mcp, /metrics, the landing page and UI assets, one
 * error renderer.
 * @example const app = await buildHttpApp(deps); await app.listen({ port: 3000 })
 */
export async function buildHttpApp(deps: HttpAppDeps): Promise<FastifyInstance> {
  // The security headers, once known: answers written before any hook runs get them too.
  const answerHeaders: Record<string, string> = {};
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    // request.log becomes a pino child only when a line is written (most requests write none at LOG_LEVEL=warn).
    childLoggerFactory: (logger, bindings, options) => requestLoggerFactory(logger as Logger, bindings, options),
    trustProxy: proxyTrust(deps.config.trustProxy),
    // Keep-alive, headers and request timeouts (MAX_CONNECTIONS and the rest: README "Running behind a proxy").
    ...connectionOptions(deps.config.connections),
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: requestIdFor,
    clientErrorHandler: (err, socket) => {
      if (socket.writable) socket.end(clientErrorResponse(err, answerHeaders));
      else socket.destroy(err);
    },
    // A path parameter that is not valid percent-encoding ('/api/price/%') is a 400 in the envelope too.
    frameworkErrors: (err, request, reply) => sendFrameworkError(err, request, reply, answerHeaders),
    // CCIP calldata travels in the path; ERC-3668 requests run to a few KB of hex.
    routerOptions: { maxParamLength: 16_384 },
  });
  installErrorHandling(app);
  const shares = connectionShares(deps.config);
  const traceContextFrom = deps.config.otel.traceContextFrom;
  registerHttpSpans(app, {
    trustsTraceContext: traceContextFrom === 'proxies' ? shares.isTrustedProxy : () => traceContextFrom === 'all',
  });
  registerJsonBodyParser(app);
  // Set as the request arrives (a callback hook, not an async onSend: this runs on every request).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
  await registerCors(app, deps.config.corsOrigins);
  Object.assign(answerHeaders, await registerSecurityHeaders(app));
  // After the request id and security headers: a refused connection's 503 carries them too.
  limitConnections(app, shares);
  const operationTallies = new OperationTallies(
    publishedOperationNames(
      deps.operations,
      graphiqlTabs().map((tab) => tab.query),
    ),
  );
  registerMetrics(app, createHttpMetrics({ ...deps.observed, operations: operationTallies }), deps.config.metricsToken);
  await app.register(uiAssets, {});
  await registerLandingPage(app, { publicBaseUrl: deps.config.publicBaseUrl });

  // One micro-cache for REST rows and the agent tools that run them.
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
  for (const document of deps.documents) {
    const { row } = document;
    // An HTML page (the docs) gets a CSP that lets its own inline script run; other documents keep the API's.
    const pageHeaders = row.contentType.startsWith('text/html') ? await htmlPageHeaders(document.body) : {};
    app.route({
      method: row.method,
      url: fastifyPath(row.path),
      handler: async (request, reply) => {
        await runAdmitted({
          admit: () => deps.access.admit({ ip: request.ip, headers: request.headers }, row),
          run: async (decision) => {
            reply.headers(decision.headers);
          },
          holdSlot: (release) => reply.raw.once('close', release),
        });
        return reply.headers(pageHeaders).type(row.contentType).send(document.body);
      },
    });
  }
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
  return app;
}
