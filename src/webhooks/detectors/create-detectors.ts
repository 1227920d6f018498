import type { Logger } from 'pino';
import type { Address } from 'viem';
import type { AppConfig } from '../../config/config.js';
import { MAINNET_ENS_CONTRACTS } from '../../sources/ens/ens-contracts.js';
import { localEnsContracts } from '../../sources/ens/ens-sources.js';
import type { Sources } from '../../sources/sources.js';
import type { Store } from '../../store/store.js';
import type { Watcher } from '../event-matching.js';
import type { PublishEvents } from '../event-publisher.js';
import type { EventDetector } from '../start-webhooks.js';
import { chainEventDetector } from './chain-event-detector.js';
import type { EnsEventContracts } from './ens-log-events.js';
import { ensRecordIndex } from './ens-record-index.js';
import { farcasterDetector } from './farcaster-detector.js';
import { priceAlertDetector } from './price-alert-detector.js';

/** The PublicResolver the embedded chain's seed deployed (src/embedded/chain/seed-steps/ens.ts). */
const LOCAL_RESOLVER_DEPLOYMENT = 'PublicResolver';

/**
 * Every event detector this instance runs: Ethereum's ENS and wallet events (the embedded chain's seeded ENS, or
 * mainnet's) and its ENS record index, the embedded Base chain's ENS record index, price alerts, and Farcaster casts
 * and follows. Each record index runs exactly when its chain has a client (Base: an embedded one): createEnsSources
 * reads the records list from it under the same condition.
 * @example webhooks.runDetectors(createEventDetectors({ config, sources, store, publish, localDeployments, logger }))
 */
export function createEventDetectors(p: {
  config: AppConfig;
  sources: Sources;
  store: Store;
  /** Who wants events: the active webhooks and the open subscriptions (RunningWebhooks.wanted). */
  wanted: () => Promise<readonly Watcher[]>;
  publish: PublishEvents;
  /** What the embedded chain's seed deployed; undefined with a live ETH_RPC_URL. */
  localDeployments: ReadonlyMap<string, Address> | undefined;
  logger: Logger;
}): EventDetector[] {
  const { webhooks } = p.config;
  const detectors: EventDetector[] = [];
  const ethereum = p.sources.chains.ethereum;
  if (ethereum.client) {
    let contracts: EnsEventContracts | undefined;
    if (p.localDeployments) {
      const local = localEnsContracts(p.localDeployments);
      contracts = local && {
        registry: local.registry,
        registrar: local.ethRegistrar,
        resolver: p.localDeployments.get(LOCAL_RESOLVER_DEPLOYMENT),
      };
    } else {
      // Live: records of every resolver (names resolve through many), the registry and the .eth registrar.
      contracts = {
        registry: MAINNET_ENS_CONTRACTS.registry,
        registrar: MAINNET_ENS_CONTRACTS.ethRegistrar,
        resolver: undefined,
      };
    }
    detectors.push(
      chainEventDetector({
        client: ethereum.client,
        chainId: ethereum.chainId,
        contracts,
        ensHistory: p.localDeployments !== undefined,
        confirmations: webhooks.confirmations,
        store: p.store,
        wanted: p.wanted,
        publish: p.publish,
        intervalMs: webhooks.pollMs,
        traces: webhooks.traces,
        logger: p.logger,
      }),
      // The records each name has, for the records list (src/sources/ens/indexed-record-keys.ts).
      ensRecordIndex({
        client: ethereum.client,
        chainId: ethereum.chainId,
        fromGenesis: p.localDeployments !== undefined,
        confirmations: webhooks.confirmations,
        store: p.store,
        publish: p.publish,
        intervalMs: webhooks.pollMs,
      }),
    );
  }
  const base = p.sources.chains.base;
  if (base.client && base.mode === 'local') {
    // The embedded Base chain's records (base.eth names), into the same store index: a namehash names one name, and
    // each name's records are on one chain (createEnsSources asks Base's index for names under base.eth only).
    detectors.push(
      ensRecordIndex({
        client: base.client,
        chainId: base.chainId,
        fromGenesis: true,
        confirmations: webhooks.confirmations,
        store: p.store,
        publish: p.publish,
        intervalMs: webhooks.pollMs,
      }),
    );
  }
  detectors.push(
    priceAlertDetector({
      prices: p.sources.prices,
      store: p.store,
      wanted: p.wanted,
      publish: p.publish,
      intervalMs: webhooks.sourcePollMs,
    }),
    farcasterDetector({
      farcaster: p.sources.farcaster,
      store: p.store,
      wanted: p.wanted,
      publish: p.publish,
      intervalMs: webhooks.sourcePollMs,
    }),
  );
  return detectors;
}
