import 'reflect-metadata';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { compileRouteTable } from '../../rest-compat/compile-routes.js';
import type { RouteTable } from '../../rest-compat/route-row.js';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import { openApiDocument, servedDocuments } from '../../rest-compat/routes/documents.js';
import { buildAllSubgraphs } from '../../subgraphs/index.js';
import type { ChainKey } from '../config/chains.js';
import type { AppConfig } from '../config/config.js';
import type { LocalChain } from '../embedded/chain/local-chain.js';
import type { LocalFacilitator } from '../embedded/local-facilitator.js';
import type { ReplayServer } from '../embedded/replay/replay-server.js';
import { startInProcessGateway } from '../gateway/in-process-gateway.js';
import { readPublishedSchema } from '../gateway/published-schema.js';
import { buildHttpApp } from '../http/app.js';
import { agentSurface, pricedTools } from '../http/mcp/agent-surface.js';
import { createLogger } from '../logging/logger.js';
import type { Sources } from '../sources/sources.js';
import type { Store } from '../store/store.js';
import type { AppOffers } from './app-services.js';
import { assertPortFree, portInUse } from './port-check.js';
import { startServices } from './start-services.js';

export interface RunningServer {
  app: FastifyInstance;
  /** http://host:port the server listens on. */
  url: string;
  store: Store;
  sources: Sources;
  localChain: LocalChain | undefined;
  replay: ReplayServer | undefined;
  /** The embedded x402 facilitator and its Base chain, when X402_FACILITATOR_URL does not name one. */
  localFacilitator: LocalFacilitator | undefined;
  /** Stops accepting, finishes in-flight requests, then closes the store and the local chain. */
  close(): Promise<void>;
}

export interface CreateServerOptions {
  config: AppConfig;
  logger?: Logger;
  table?: RouteTable;
  /** Namespace for Redis keys (tests isolate with it); defaults to the store's own. */
  storePrefix?: string;
  /** Recorded upstream replies for local sources; default test/fixtures. */
  fixturesDir?: string;
  /** Called once per JSON-RPC method sent to a chain (tests count upstream calls with it). */
  onRpcRequest?: (chain: ChainKey, method: string) => void;
}

/**
 * Assembles the whole service from validated config: store, chain (embedded or live), sources, subgraphs,
 * gateway, route table, access, HTTP; then listens.
 * @example const server = await createServer({ config: loadConfig(process.env) })
 */
export async function createServer(opts: CreateServerOptions): Promise<RunningServer> {
  const { config } = opts;
  const logger = opts.logger ?? createLogger(config.logLevel);
  const table = opts.table ?? ROUTE_TABLE;
  const startedAt = Date.now();
  const cleanups: (() => Promise<void>)[] = [];
  // A busy port fails now, in milliseconds, not after the chains have started.
  await assertPortFree(config.port, config.host);
  try {
    // The store and the embedded chains (anvil processes) start while this process builds the schema and the routes.
    let offers: AppOffers | undefined;
    const servicesStart = startServices({
      config,
      logger,
      table,
      storePrefix: opts.storePrefix,
      fixturesDir: opts.fixturesDir,
      onRpcRequest: opts.onRpcRequest,
      startedAt,
      offers: () => offers,
    });
    // Awaited below; until then a failure must not count as unhandled.
    servicesStart.catch(() => undefined);
    cleanups.push(async () => (await servicesStart).close());

    const subgraphs = await buildAllSubgraphs();
    const gateway = await startInProcessGateway({ subgraphs, ...readPublishedSchema() });
    cleanups.push(() => gateway.stop());

    const compiled = compileRouteTable(table, gateway.apiSchema);
    const documentContext = {
      table,
      apiSchema: gateway.apiSchema,
      publicBaseUrl: config.publicBaseUrl,
      defaultPriceUsd: config.x402.defaultPriceUsd,
    };
    const documents = servedDocuments(table, documentContext);
    const agents = agentSurface({
      table,
      operations: [...compiled.values()],
      documents,
      document: openApiDocument(documentContext),
      supergraphSdl: gateway.supergraphSdl,
      defaultPriceUsd: config.x402.defaultPriceUsd,
    });
    offers = { discovery: agents.httpDiscovery, tools: pricedTools(agents.tools) };

    const services = await servicesStart;
    const { store, sources, localChain, localFacilitator } = services;

    const app = await buildHttpApp({
      config,
      logger,
      gateway,
      table,
      operations: [...compiled.values()],
      documents,
      agents,
      access: services.access.gate,
      contexts: services.contexts,
    });
    cleanups.push(() => app.close());
    await app.listen({ port: config.port, host: config.host }).catch((err: unknown) => {
      throw portInUse(err, config.port, config.host);
    });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
    const listenUrl = `http://${host}:${port}`;
    await services.listening(listenUrl);
    logger.info(
      {
        port,
        store: store.describe().kind,
        chain: localChain ? 'local' : 'live',
        ccipSigner: services.ccipSigner,
        ms: Date.now() - startedAt,
      },
      'listening',
    );
    let closing: Promise<void> | undefined;
    return {
      app,
      url: listenUrl,
      store,
      sources,
      localChain,
      replay: services.replay,
      localFacilitator,
      close() {
        closing ??= (async () => {
          for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
        })();
        return closing;
      },
    };
  } catch (err) {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    throw err;
  }
}
