import 'reflect-metadata';
import type { Logger } from 'pino';
import type { RouteTable } from '../../rest-compat/route-row.js';
import type { CcipServices } from '../../subgraphs/shared/ccip-services.js';
import type { AppServices } from '../../subgraphs/shared/graph-context.js';
import { type Access, createAccess } from '../access/create-access.js';
import { createCcipServices } from '../ccip/ccip-services.js';
import { basePrimaryNameParent, ensReaderParent } from '../ccip/chain-served-parent.js';
import type { ChainKey } from '../config/chains.js';
import type { AppConfig } from '../config/config.js';
import { assertLiveReady } from '../config/live-guard.js';
import { BASE_CHAIN_ID } from '../embedded/chain/embedded-chain-plans.js';
import { serveParentsOffchain } from '../embedded/chain/offchain-resolver.js';
import { localTokenList } from '../embedded/chain/seed-steps/demo-assets.js';
import { registerDemoSubname } from '../embedded/demo-subnames.js';
import { type LocalFacilitator, startLocalFacilitator } from '../embedded/local-facilitator.js';
import type { ReplayServer } from '../embedded/replay/replay-server.js';
import { type EmbeddedChain, startEmbeddedChainIfNeeded } from '../embedded/start-embedded-chain.js';
import { type GraphContextFactory, graphContextFactory } from '../http/graph-context-factory.js';
import { ServiceTelemetry } from '../observability/service-telemetry.js';
import { BASE_NAMES_PARENT } from '../sources/ens/base-names-reader.js';
import type { Sources } from '../sources/sources.js';
import { createFacilitatorSource } from '../sources/x402/facilitator-source.js';
import type { LiveEventBus } from '../store/live-event-bus.js';
import { openLiveEventBus } from '../store/open-live-event-bus.js';
import { openStore } from '../store/open-store.js';
import { VolatileRedisError } from '../store/redis-durability.js';
import type { Store } from '../store/store.js';
import { createEventDetectors } from '../webhooks/detectors/create-detectors.js';
import { startWebhooks } from '../webhooks/start-webhooks.js';
import { type AppOffers, createAppServices } from './app-services.js';
import { createSources } from './create-sources.js';
import { watchEmbeddedPeers } from './embedded-peers.js';

/** Everything a resolver can reach, built once from config: the same for the whole server and a subgraph alone. */
export interface Services {
  store: Store;
  sources: Sources;
  /** The embedded Ethereum chain, when ETH_RPC_URL is unset. */
  localChain: EmbeddedChain | undefined;
  /** The embedded x402 facilitator and its Base chain, when X402_FACILITATOR_URL does not name one. */
  localFacilitator: LocalFacilitator | undefined;
  replay: ReplayServer | undefined;
  access: Access;
  /** The CCIP signer's address (CCIP_SIGNER_KEY, or the key generated once into the store). */
  ccipSigner: `0x${string}`;
  app: AppServices;
  /**
   * Where detected events reach subscriptions, on this instance and (Redis) every other; how many are open here; and
   * the end of every open one (shutdown: each stream completes).
   */
  live: { bus: LiveEventBus; open(): number; completeAll(): void };
  /** The counts /metrics reports beyond HTTP (store calls, access, webhook attempts). */
  telemetry: ServiceTelemetry;
  /** One GraphContext per HTTP request: fresh loaders, the caller identified by the access gate. */
  contexts: GraphContextFactory;
  /**
   * Called once the process listens at `url`: SIWE's default audience and x402 resources use it, and the embedded
   * chain's CCIP parents get an OffchainResolver pointing at `url`'s /ccip route.
   */
  listening(url: string): Promise<void>;
  /** The URL given to listening(); throws before. */
  listenUrl(): string;
  /** Closes in reverse order of start: sources, chains, store. */
  close(): Promise<void>;
}

export interface StartServicesOptions {
  config: AppConfig;
  logger: Logger;
  table: RouteTable;
  /** Namespace for Redis keys (tests isolate with it); defaults to REDIS_KEY_PREFIX. */
  storePrefix?: string;
  /** Recorded upstream replies for local sources; default recordings/. */
  recordingsDir?: string;
  /** Called once per JSON-RPC method sent to a chain (tests count upstream calls with it). */
  onRpcRequest?: (chain: ChainKey, method: string, params?: unknown) => void;
  startedAt?: number;
  /** Bazaar discovery of each priced route and the MCP tools sold per call, for /.well-known/x402 (server only). */
  offers?: () => AppOffers | undefined;
  /** Where the store, access and webhooks count for /metrics; default a new one. */
  telemetry?: ServiceTelemetry;
}

/** The store the configuration names (SQLite under DATA_DIR, or Redis), its durability changes logged. */
function openServiceStore(
  config: AppConfig,
  logger: Logger,
  p: { prefix: string | undefined; telemetry: ServiceTelemetry },
): Promise<Store> {
  return openStore({
    dataDir: config.dataDir,
    redis: config.redis,
    prefix: p.prefix ?? config.redisKeyPrefix,
    timeoutMs: config.storeTimeoutMs,
    calls: p.telemetry.storeCalls,
    volatileOk: config.redisVolatileOk,
    waitReplicas: config.redisWaitReplicas,
    onDurabilityUnknown: (message) => logger.warn(message),
    durabilityCheckMs: config.redisDurabilityCheckMs,
    onDurabilityChange: (now) => {
      if (now.kind === 'persistent') logger.info('Redis persistence is on again (AOF or RDB snapshots)');
      else if (now.kind === 'volatile' && !config.redisVolatileOk)
        logger.error(new VolatileRedisError(now.masters).message);
      else if (now.kind === 'unknown')
        logger.warn(`Redis persistence can no longer be read (CONFIG GET: ${now.reason})`);
    },
  });
}

/**
 * The embedded x402 facilitator (its own Base chain) and the embedded Ethereum chain, each when the configuration
 * names no live one, started side by side; their stops join `cleanups`.
 */
async function startEmbeddedNetworks(
  config: AppConfig,
  logger: Logger,
  cleanups: (() => Promise<void>)[],
): Promise<{ localChain: EmbeddedChain | undefined; localFacilitator: LocalFacilitator | undefined }> {
  const facilitatorStart = config.x402.facilitatorUrl === undefined ? startLocalFacilitator({ logger }) : undefined;
  facilitatorStart?.catch(() => undefined);
  if (facilitatorStart) cleanups.push(async () => (await facilitatorStart).close());
  const localChain = await startEmbeddedChainIfNeeded(config, logger);
  if (localChain) cleanups.push(() => localChain.stop());
  return { localChain, localFacilitator: await facilitatorStart };
}

/**
 * Another instance on this Redis with embedded chains of its own disagrees with this one on every chain read: each
 * announces its chains, and warns of the others (docs/operators.md#one-chain-for-all-instances).
 */
async function announceEmbeddedChains(p: {
  store: Store;
  localChain: EmbeddedChain | undefined;
  localFacilitator: LocalFacilitator | undefined;
  logger: Logger;
  cleanups: (() => Promise<void>)[];
}): Promise<void> {
  const chains = [
    ...(p.localChain ? [{ name: 'ethereum', chainId: 1, rpcUrl: p.localChain.rpcUrl }] : []),
    ...(p.localFacilitator ? [{ name: 'base', chainId: BASE_CHAIN_ID, rpcUrl: p.localFacilitator.chain.rpcUrl }] : []),
  ];
  if (chains.length === 0) return;
  const peers = await watchEmbeddedPeers({ store: p.store, identity: { chains }, logger: p.logger });
  p.cleanups.push(() => peers.stop());
}

/**
 * Every process that serves the webhooks API also delivers and detects: the outbox, claims and cursors live in the
 * store, so instances sharing it send each delivery once.
 */
function startWebhooksAndDetectors(p: {
  config: AppConfig;
  store: Store;
  sources: Sources;
  logger: Logger;
  telemetry: ServiceTelemetry;
  localChain: EmbeddedChain | undefined;
  /** Where detected events go for subscriptions (src/store/live-event-bus.ts). */
  bus: LiveEventBus;
}): ReturnType<typeof startWebhooks> {
  const { config, store, sources, logger } = p;
  const webhooks = startWebhooks({
    config,
    store,
    logger,
    bus: p.bus,
    attempts: p.telemetry.webhookAttempts,
    liveTallies: p.telemetry.live,
  });
  webhooks.runDetectors(
    createEventDetectors({
      config,
      sources,
      store,
      wanted: webhooks.wanted,
      publish: webhooks.publish,
      localDeployments: p.localChain?.deployments,
      logger,
    }),
  );
  return webhooks;
}

/**
 * The embedded chain's CCIP parents get ENS's OffchainResolver, whose URL is fixed at deployment: it points at the
 * address this process just bound (the local chain is loopback-only, so only this machine resolves through it).
 */
async function serveEmbeddedParents(
  localChain: EmbeddedChain,
  listenUrl: string,
  signer: `0x${string}`,
  parents: string[],
): Promise<void> {
  await serveParentsOffchain({
    rpcUrl: localChain.rpcUrl,
    gatewayUrl: `${listenUrl}/ccip/{sender}/{data}.json`,
    signers: [signer],
    parents,
  });
}

/** What the embedded chains (when they run) hand the sources: their RPC URLs, deployments and tokens. */
function createServiceSources(
  opts: StartServicesOptions,
  p: { store: Store; localChain: EmbeddedChain | undefined; localFacilitator: LocalFacilitator | undefined },
): ReturnType<typeof createSources> {
  const { localChain, localFacilitator } = p;
  return createSources({
    config: opts.config,
    localRpcUrl: localChain?.rpcUrl,
    localBaseRpcUrl: localFacilitator?.chain.rpcUrl,
    localBaseDeployments: localFacilitator?.deployments,
    recordingsDir: opts.recordingsDir,
    onRpcRequest: opts.onRpcRequest,
    localTokens: localChain ? localTokenList(localChain.deployments) : [],
    localDeployments: localChain?.deployments,
    recordKeysIndex: p.store,
  });
}

/** The URL the process listens at: known once it does (PORT may be 0); no request, hence no challenge, comes before. */
function listenUrlCell(): { set(url: string): void; get(): string } {
  let listenUrl: string | undefined;
  return {
    set: (url) => {
      listenUrl = url;
    },
    get: () => {
      if (listenUrl === undefined) throw new Error('the server is not listening yet');
      return listenUrl;
    },
  };
}

/** Access (keys, sessions, limits, x402) and the facilitator it settles with: the embedded one, or the configured. */
function createServiceAccess(p: {
  config: AppConfig;
  store: Store;
  sources: Sources;
  localFacilitator: LocalFacilitator | undefined;
  telemetry: ServiceTelemetry;
  listenUrl: () => string;
}): { access: Access; facilitatorUrl: string } {
  const { config, store, sources, localFacilitator } = p;
  const facilitatorUrl = localFacilitator?.url ?? config.x402.facilitatorUrl!;
  const facilitator = createFacilitatorSource({
    url: facilitatorUrl,
    mode: localFacilitator ? 'local' : 'live',
    registry: sources.health,
    timeoutMs: config.upstreamTimeoutMs,
  });
  const access = createAccess({
    config,
    store,
    sources,
    facilitator,
    listenUrl: p.listenUrl,
    tallies: p.telemetry.access,
  });
  return { access, facilitatorUrl };
}

/** The CCIP-Read gateway's services and every parent it serves: the configured ones, and the embedded chains'. */
async function startCcipGateway(p: {
  config: AppConfig;
  store: Store;
  sources: Sources;
  localChain: EmbeddedChain | undefined;
  localFacilitator: LocalFacilitator | undefined;
}): Promise<{ ccip: CcipServices & { signer: `0x${string}` }; parentNames: string[] }> {
  const { config, store, sources, localChain } = p;
  // On the embedded default, base.eth on the embedded Ethereum chain resolves through this gateway to the embedded
  // Base chain's names, as Basenames' L1 resolver does on mainnet: ENS clients on chain 1 find them as REST does;
  // 80002105.reverse answers Base primary names (ENSIP-19), as viem's getEnsName({ coinType }) reads them on chain 1.
  const chainParents =
    localChain && p.localFacilitator && sources.ens.reader
      ? [ensReaderParent(BASE_NAMES_PARENT, sources.ens.reader), basePrimaryNameParent(sources.ens.reader)]
      : [];
  const ccip = await createCcipServices({ config, store, chainParents });
  const parentNames = [...config.ccip.parentNames, ...chainParents.map((served) => served.parent)];
  // The embedded default serves a demo subname (dave.offchain.eth) from its first start.
  if (localChain) await registerDemoSubname(store, config.ccip.parentNames);
  return { ccip, parentNames };
}

/**
 * The composition root: store, embedded chains (when no RPC is configured), sources, access, CCIP and the app
 * services, from validated config. `createServer` and `npm run subgraph` both start here, so a subgraph served
 * alone sees the same chain data, upstreams and env vars as inside the server.
 * @example const services = await startServices({ config, logger, table: ROUTE_TABLE })
 */
export async function startServices(opts: StartServicesOptions): Promise<Services> {
  const { config, logger } = opts;
  // Before the store opens or a chain starts: a live part leaning on a demo value never serves.
  assertLiveReady(config);
  const startedAt = opts.startedAt ?? Date.now();
  const telemetry = opts.telemetry ?? new ServiceTelemetry();
  const cleanups: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  };
  try {
    const store = await openServiceStore(config, logger, { prefix: opts.storePrefix, telemetry });
    cleanups.push(() => store.close());

    const { localChain, localFacilitator } = await startEmbeddedNetworks(config, logger, cleanups);
    await announceEmbeddedChains({ store, localChain, localFacilitator, logger, cleanups });

    const created = await createServiceSources(opts, { store, localChain, localFacilitator });
    cleanups.push(() => created.close());
    const { sources } = created;

    const listenUrl = listenUrlCell();
    const { access, facilitatorUrl } = createServiceAccess({
      config,
      store,
      sources,
      localFacilitator,
      telemetry,
      listenUrl: listenUrl.get,
    });
    const { ccip, parentNames } = await startCcipGateway({ config, store, sources, localChain, localFacilitator });
    // Stopped before the store closes.
    const bus = await openLiveEventBus({
      redis: config.redis,
      prefix: opts.storePrefix ?? config.redisKeyPrefix,
      replay: config.live.replay,
      onError: (err) => logger.warn({ err }, 'live event bus connection error'),
    });
    cleanups.push(() => bus.close());
    const webhooks = startWebhooksAndDetectors({ config, store, sources, logger, telemetry, localChain, bus });
    cleanups.push(() => webhooks.stop());
    const app = createAppServices({
      config,
      table: opts.table,
      store,
      startedAt,
      account: access.account,
      ccip,
      webhooks: webhooks.services,
      live: webhooks.live,
      facilitatorUrl,
      offers: opts.offers,
    });
    return {
      store,
      sources,
      localChain,
      localFacilitator,
      replay: created.replay,
      access,
      ccipSigner: ccip.signer,
      app,
      live: { bus, open: () => webhooks.live.size, completeAll: () => webhooks.live.completeAll() },
      telemetry,
      contexts: graphContextFactory({
        sources,
        app,
        publicBaseUrl: config.publicBaseUrl,
        identify: access.gate.identify,
      }),
      async listening(url) {
        listenUrl.set(url);
        if (localChain) await serveEmbeddedParents(localChain, url, ccip.signer, parentNames);
      },
      listenUrl: listenUrl.get,
      close: closeAll,
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
