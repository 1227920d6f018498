import 'reflect-metadata';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { compileRouteTable } from '../../rest-compat/compile-routes.js';
import type { DocumentRow, RouteTable } from '../../rest-compat/route-row.js';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import { buildAllSubgraphs } from '../../subgraphs/index.js';
import { createAccess } from '../access/create-access.js';
import { createCcipServices } from '../ccip/ccip-services.js';
import type { LocalChain } from '../chain/local-chain.js';
import { serveParentsOffchain } from '../chain/offchain-resolver.js';
import { localTokenList } from '../chain/seed-steps/demo-assets.js';
import type { ChainKey } from '../config/chains.js';
import type { AppConfig } from '../config/config.js';
import { composeSupergraph } from '../gateway/compose-supergraph.js';
import { startInProcessGateway } from '../gateway/in-process-gateway.js';
import { buildHttpApp } from '../http/app.js';
import { graphContextFactory } from '../http/graph-context-factory.js';
import { createLogger } from '../logging/logger.js';
import type { ReplayServer } from '../sources/replay/replay-server.js';
import type { Sources } from '../sources/sources.js';
import { createFacilitatorSource } from '../sources/x402/facilitator-source.js';
import { type LocalFacilitator, startLocalFacilitator } from '../sources/x402/local-facilitator.js';
import { openStore } from '../store/open-store.js';
import type { Store } from '../store/store.js';
import { createEventDetectors } from '../webhooks/detectors/create-detectors.js';
import { startWebhooks } from '../webhooks/start-webhooks.js';
import { createAppServices } from './app-services.js';
import { createSources } from './create-sources.js';
import { startEmbeddedChainIfNeeded } from './start-embedded-chain.js';

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
  try {
    const store = await openStore({
      dataDir: config.dataDir,
      redisUrl: config.redisUrl,
      prefix: opts.storePrefix,
      timeoutMs: config.storeTimeoutMs,
    });
    cleanups.push(() => store.close());

    // The embedded x402 facilitator (its own Base chain) starts alongside the embedded Ethereum chain.
    const facilitatorStart = config.x402.facilitatorUrl === undefined ? startLocalFacilitator({ logger }) : undefined;
    facilitatorStart?.catch(() => undefined);
    if (facilitatorStart) cleanups.push(async () => (await facilitatorStart).close());

    const localChain = await startEmbeddedChainIfNeeded(config, logger);
    if (localChain) cleanups.push(() => localChain.stop());
    const localFacilitator = await facilitatorStart;

    const created = await createSources({
      config,
      localRpcUrl: localChain?.rpcUrl,
      localBaseRpcUrl: localFacilitator?.chain.rpcUrl,
      localBaseDeployments: localFacilitator?.deployments,
      fixturesDir: opts.fixturesDir,
      onRpcRequest: opts.onRpcRequest,
      localTokens: localChain ? localTokenList(localChain.deployments) : [],
      localDeployments: localChain?.deployments,
    });
    cleanups.push(() => created.close());
    const { sources } = created;

    const subgraphs = await buildAllSubgraphs();
    const gateway = await startInProcessGateway({ subgraphs, supergraphSdl: composeSupergraph(subgraphs) });
    cleanups.push(() => gateway.stop());

    const compiled = compileRouteTable(table, gateway.apiSchema);
    const documents = table.rows
      .filter((row): row is DocumentRow => row.kind === 'document')
      .map((row) => ({
        row,
        body: row.render({
          table,
          apiSchema: gateway.apiSchema,
          publicBaseUrl: config.publicBaseUrl,
          defaultPriceUsd: config.x402.defaultPriceUsd,
        }),
      }));
    const facilitatorUrl = localFacilitator?.url ?? config.x402.facilitatorUrl!;
    const facilitator = createFacilitatorSource({
      url: facilitatorUrl,
      mode: localFacilitator ? 'local' : 'live',
      registry: sources.health,
      timeoutMs: config.upstreamTimeoutMs,
    });
    // Known once the server listens (PORT may be 0); no request, hence no challenge, comes before.
    let listenUrl: string | undefined;
    const access = createAccess({
      config,
      store,
      sources,
      facilitator,
      listenUrl: () => {
        if (listenUrl === undefined) throw new Error('the server is not listening yet');
        return listenUrl;
      },
    });
    const ccip = await createCcipServices({ config, store });
    const webhooks = startWebhooks({ config, store, logger });
    // Stopped before the store closes (cleanups run in reverse): no attempt records into a closed store.
    cleanups.push(() => webhooks.stop());
    webhooks.runDetectors(
      createEventDetectors({
        config,
        sources,
        store,
        publish: webhooks.publish,
        localDeployments: localChain?.deployments,
      }),
    );
    const app = await buildHttpApp({
      config,
      logger,
      gateway,
      table,
      operations: [...compiled.values()],
      documents,
      access: access.gate,
      contexts: graphContextFactory({
        sources,
        app: createAppServices({
          config,
          table,
          store,
          startedAt,
          account: access.account,
          ccip,
          webhooks: webhooks.services,
          facilitatorUrl,
        }),
        publicBaseUrl: config.publicBaseUrl,
        identify: access.gate.identify,
      }),
    });
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
    listenUrl = `http://${host}:${port}`;
    // The embedded chain's parents get ENS's OffchainResolver, whose URL is fixed at deployment: it points at the
    // address this server just bound (the local chain is loopback-only, so only this machine resolves through it).
    if (localChain) {
      await serveParentsOffchain({
        rpcUrl: localChain.rpcUrl,
        gatewayUrl: `http://${host}:${port}/ccip/{sender}/{data}.json`,
        signers: [ccip.signer],
        parents: config.ccip.parentNames,
      });
    }
    logger.info(
      {
        port,
        store: store.describe().kind,
        chain: localChain ? 'local' : 'live',
        ccipSigner: ccip.signer,
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
      replay: created.replay,
      localFacilitator,
      close() {
        closing ??= (async () => {
          await app.close();
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
