import 'reflect-metadata';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { RouteTable } from '../../rest-compat/route-row.js';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import type { ChainKey } from '../config/chains.js';
import type { AppConfig } from '../config/config.js';
import type { LocalChain } from '../embedded/chain/local-chain.js';
import type { LocalFacilitator } from '../embedded/local-facilitator.js';
import type { ReplayServer } from '../embedded/replay/replay-server.js';
import { buildHttpApp } from '../http/app.js';
import { pricedTools } from '../http/mcp/agent-surface.js';
import { createLogger } from '../logging/logger.js';
import { startTracing } from '../observability/start-tracing.js';
import type { Sources } from '../sources/sources.js';
import type { LiveEventBus } from '../store/live-event-bus.js';
import type { Store } from '../store/store.js';
import type { AppOffers } from './app-services.js';
import { assertPortFree, portInUse } from './port-check.js';
import { prepareApi } from './prepared-api.js';
import { startServices } from './start-services.js';
import { type WarmUpOutcome, warmAfterListening } from './warm-after-listening.js';

/**
 * How long after listening the first request's one-time costs are paid (warm-after-listening.ts): past the start's own
 * work and the GraphQL documents' warm-up (300 ms), early enough that few first callers come before it.
 */
const WARM_UP_DELAY_MS = 500;

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
  /** Subscriptions: the bus detected events reach them by (src/store/live-event-bus.ts), and how many are open. */
  live: { bus: LiveEventBus; open(): number };
  /** The background warm-up after listening (warm-after-listening.ts): settles once it has run or been stopped. */
  warmedUp: Promise<WarmUpOutcome>;
  /** Stops accepting, finishes in-flight requests, then closes the store and the local chain. */
  close(): Promise<void>;
}

export interface CreateServerOptions {
  config: AppConfig;
  logger?: Logger;
  table?: RouteTable;
  /** Namespace for Redis keys (tests isolate with it); defaults to the store's own. */
  storePrefix?: string;
  /** Recorded upstream replies for local sources; default recordings/. */
  recordingsDir?: string;
  /** Called once per JSON-RPC method sent to a chain (tests count upstream calls with it). */
  onRpcRequest?: (chain: ChainKey, method: string, params?: unknown) => void;
  /** Span processors of a test's own (an in-memory exporter): traces on without OTEL_EXPORTER_OTLP_ENDPOINT. */
  spanProcessors?: readonly SpanProcessor[];
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
    // Before anything that makes spans; shut down last, after the store, so the last spans are sent.
    const tracing = await startTracing({ otel: config.otel, spanProcessors: opts.spanProcessors });
    if (tracing) cleanups.push(() => tracing.shutdown());
    // The store and the embedded chains (anvil processes) start while this process builds the schema and the routes.
    let offers: AppOffers | undefined;
    const servicesStart = startServices({
      config,
      logger,
      table,
      storePrefix: opts.storePrefix,
      recordingsDir: opts.recordingsDir,
      onRpcRequest: opts.onRpcRequest,
      startedAt,
      offers: () => offers,
    });
    // Awaited below; until then a failure must not count as unhandled.
    servicesStart.catch(() => undefined);
    cleanups.push(async () => (await servicesStart).close());

    const { gateway, operations, documents, agents } = await prepareApi({
      table,
      publicBaseUrl: config.publicBaseUrl,
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
      operations,
      documents,
      agents,
      access: services.access.gate,
      contexts: services.contexts,
      observed: { telemetry: services.telemetry, sources: sources.health, outbox: store, parts: config.parts, store },
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
    // The ENS normaliser's tables, built once the server has been listening
    // a moment (not on the start's time, nor on a request's), unless it closes first.
    const warmUp = warmAfterListening({ delayMs: WARM_UP_DELAY_MS });
    cleanups.push(() => warmUp.stop());
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
      live: services.live,
      warmedUp: warmUp.done,
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
