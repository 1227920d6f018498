import type { Address } from 'viem';
import { BlockReads } from '../rpc/block-reads.js';
import type { ChainClients, ChainRpcClient } from '../rpc/chain-clients.js';
import type { RpcSourceClients } from '../rpc/rpc-source-clients.js';
import { SourceClient } from '../source-client.js';
import type { SourceHealthRegistry } from '../source-health.js';
import {
  BASE_NAMES_PARENT,
  BASENAMES_CONTRACTS,
  type BaseNamesContracts,
  BaseNamesReader,
} from './base-names-reader.js';
import { ChainRoutedRecordKeys } from './chain-routed-record-keys.js';
import { EnsChainReader } from './ens-chain-reader.js';
import { type EnsContracts, LOCAL_BATCH_GATEWAY, MAINNET_ENS_CONTRACTS } from './ens-contracts.js';
import type { EnsDomainsSource } from './ens-domains.js';
import { EnsEventDomains, type RegistrarOfNames } from './ens-event-domains.js';
import { ChainRoutedEnsReader, type EnsReader } from './ens-reader.js';
import type { EnsRecordKeysSource } from './ens-record-keys.js';
import { EnsSubgraphClient } from './ens-subgraph-client.js';
import { IndexedRecordKeys, type RecordKeysIndex } from './indexed-record-keys.js';
import { MergedEnsDomains } from './merged-domains.js';
import { ResolverLogKeys } from './resolver-log-keys.js';

/** ENS reads: resolution on Ethereum (and Base names on Base), and names by address. Undefined parts answer 503. */
export interface EnsSources {
  /**
   * Ethereum's ENS (mainnet contracts live, the seeded contracts on the embedded chain); names under base.eth go to
   * Base's registry and L2 resolver when the base chain has them (Basenames live, the seeded ones locally).
   */
  reader: EnsReader | undefined;
  /**
   * The ENS subgraph when ENS_SUBGRAPH_URL is set, else the embedded chain's events; with the embedded Base chain's
   * base.eth names from its events merged in.
   */
  domains: EnsDomainsSource | undefined;
  /**
   * The records a name has (text keys, coin types, content hash): the ENS subgraph when ENS_SUBGRAPH_URL is set, else
   * the ENS record index the chain detector keeps in the store (`ens-record-index`, embedded or live chain alike), else
   * (no index runs) the embedded chain's resolver logs read per request (`ens-record-events`); base.eth names from the
   * record index the detector keeps of the embedded Base chain (`basenames-record-index`), else its resolver logs read
   * per request (`basenames-record-events`).
   */
  recordKeys: EnsRecordKeysSource | undefined;
}

/** Deployment names the local chain seed records (src/embedded/chain/seed-steps/ens.ts). */
const LOCAL_DEPLOYMENT_NAMES = {
  universalResolver: 'UniversalResolver',
  registry: 'ENSRegistry',
  ethRegistrar: 'EthNameRegistrar',
} as const;

/**
 * The seeded ENS contracts of the embedded chain, or undefined when the seed did not deploy them.
 * @example localEnsContracts(deployments)?.universalResolver
 */
export function localEnsContracts(deployments: ReadonlyMap<string, Address> | undefined): EnsContracts | undefined {
  const universalResolver = deployments?.get(LOCAL_DEPLOYMENT_NAMES.universalResolver);
  const registry = deployments?.get(LOCAL_DEPLOYMENT_NAMES.registry);
  const ethRegistrar = deployments?.get(LOCAL_DEPLOYMENT_NAMES.ethRegistrar);
  if (!universalResolver || !registry || !ethRegistrar) return undefined;
  return { universalResolver, registry, ethRegistrar, gateways: [LOCAL_BATCH_GATEWAY] };
}

/**
 * The Base names contracts the embedded Base chain's seed deployed (src/embedded/chain/seed-steps/base-names.ts), or undefined.
 * @example localBaseNamesContracts(localFacilitator.deployments)?.resolver
 */
export function localBaseNamesContracts(
  deployments: ReadonlyMap<string, Address> | undefined,
): BaseNamesContracts | undefined {
  const registry = deployments?.get('ENSRegistry');
  const resolver = deployments?.get('PublicResolver');
  if (!registry || !resolver) return undefined;
  return { registry, resolver, registrar: deployments?.get('BaseRegistrar') };
}

/** Names by address from an embedded chain's registrar events, registered in /api/sources/health as `name`. */
function eventDomains(p: {
  client: ChainRpcClient;
  names: RegistrarOfNames;
  name: string;
  description: string;
  registry: SourceHealthRegistry;
  timeoutMs: number;
}) {
  return new EnsEventDomains({ client: p.client, names: p.names, source: localChainSource(p) });
}

/** Record keys from an embedded chain's resolver logs, registered in /api/sources/health as `name`. */
function logRecordKeys(p: {
  client: ChainRpcClient;
  name: string;
  description: string;
  registry: SourceHealthRegistry;
  timeoutMs: number;
}) {
  return new ResolverLogKeys({ client: p.client, source: localChainSource(p) });
}

/** A source read from an embedded chain's logs: local, never cached, named `name` in /api/sources/health. */
function localChainSource(p: { name: string; description: string; registry: SourceHealthRegistry; timeoutMs: number }) {
  const policy = {
    name: p.name,
    kind: 'ens',
    mode: 'local',
    description: p.description,
    freshnessMs: 0,
    timeoutMs: p.timeoutMs,
  } as const;
  return new SourceClient({ policy, registry: p.registry });
}

/** Record keys from an ENS record index in the store, registered in /api/sources/health as `name`. */
function indexedRecordKeys(p: {
  index: RecordKeysIndex;
  mode: 'local' | 'live';
  name: string;
  description: string;
  registry: SourceHealthRegistry;
  timeoutMs: number;
}) {
  const policy = {
    name: p.name,
    kind: 'ens',
    mode: p.mode,
    description: p.description,
    freshnessMs: 0,
    timeoutMs: p.timeoutMs,
  } as const;
  return new IndexedRecordKeys({ index: p.index, source: new SourceClient({ policy, registry: p.registry }) });
}

/**
 * The records names have: the subgraph when given, else the record index when the chain detector keeps one, else the
 * embedded chain's resolver logs per request; base.eth names from the embedded Base chain's record index (its
 * detector runs where the store is given), else its resolver logs per request.
 */
function recordKeysSource(p: {
  subgraph: EnsSubgraphClient | undefined;
  /** The store's record index, when the chain detector keeps it for Ethereum (it has a client). */
  index: { index: RecordKeysIndex; mode: 'local' | 'live' } | undefined;
  /** The store's record index, when the detector keeps it for the embedded Base chain too. */
  baseIndex: RecordKeysIndex | undefined;
  /** The embedded chain, read per request when no index runs. */
  ethereum: ChainRpcClient | undefined;
  base: ChainRpcClient | undefined;
  registry: SourceHealthRegistry;
  timeoutMs: number;
}): EnsRecordKeysSource | undefined {
  if (p.subgraph) return p.subgraph;
  const common = { registry: p.registry, timeoutMs: p.timeoutMs };
  let onEthereum: EnsRecordKeysSource | undefined;
  if (p.index)
    onEthereum = indexedRecordKeys({
      ...common,
      ...p.index,
      name: 'ens-record-index',
      description:
        p.index.mode === 'local'
          ? 'Records an ENS name has: resolver events of the embedded chain, indexed by the chain detector from block 0 (store)'
          : 'Records an ENS name has: resolver events indexed by the chain detector since it started (set ENS_SUBGRAPH_URL for the full history)',
    });
  else if (p.ethereum)
    onEthereum = logRecordKeys({
      ...common,
      client: p.ethereum,
      name: 'ens-record-events',
      description:
        'Records an ENS name has: resolver events of the embedded chain (TextChanged, AddressChanged, ContenthashChanged), read per request (no index runs)',
    });
  if (!onEthereum) return undefined;
  let onBase: EnsRecordKeysSource | undefined;
  if (p.base && p.baseIndex)
    onBase = indexedRecordKeys({
      ...common,
      index: p.baseIndex,
      mode: 'local',
      name: 'basenames-record-index',
      description:
        'Records a Base name has: resolver events of the embedded Base chain, indexed by its detector from block 0 (store)',
    });
  else if (p.base)
    onBase = logRecordKeys({
      ...common,
      client: p.base,
      name: 'basenames-record-events',
      description: 'Records a Base name has: resolver events of the embedded Base chain, read per request',
    });
  return new ChainRoutedRecordKeys({ ethereum: onEthereum, base: onBase });
}

/**
 * Builds the ENS sources: the chain reader on Ethereum's client (and Base's), and names by address from the ENS
 * subgraph (live, `ens-subgraph` in /api/sources/health) or from the embedded chain's registrar events (local,
 * `ens-events`), plus the embedded Base chain's base.eth names (`basenames-events`). A live Base chain adds none:
 * Basenames' BaseRegistrar logs carry no labels, and reading its logs from deployment spans more blocks than public
 * RPCs serve in one eth_getLogs.
 * @example createEnsSources({ chains, rpc, registry, localDeployments, subgraphUrl: config.upstreams.ensSubgraph.url, timeoutMs })
 */
export function createEnsSources(p: {
  chains: ChainClients;
  rpc: RpcSourceClients;
  registry: SourceHealthRegistry;
  localDeployments?: ReadonlyMap<string, Address> | undefined;
  /** What the embedded Base chain's seed deployed (its Base names contracts), when it runs. */
  localBaseDeployments?: ReadonlyMap<string, Address> | undefined;
  subgraphUrl?: string | undefined;
  /** The store's ENS record index: used when Ethereum has a client, as the chain detector then keeps it. */
  recordKeysIndex?: RecordKeysIndex | undefined;
  timeoutMs: number;
}): EnsSources {
  const ethereum = p.chains.ethereum;
  const rpc = p.rpc.ethereum;
  const contracts = ethereum.mode === 'live' ? MAINNET_ENS_CONTRACTS : localEnsContracts(p.localDeployments);
  const onEthereum =
    ethereum.client && rpc && contracts
      ? new EnsChainReader({
          client: ethereum.client,
          contracts,
          reads: new BlockReads({ client: ethereum.client, rpc }),
        })
      : undefined;
  const base = p.chains.base;
  const baseContracts = base.mode === 'live' ? BASENAMES_CONTRACTS : localBaseNamesContracts(p.localBaseDeployments);
  const onBase =
    base.client && p.rpc.base && baseContracts
      ? new BaseNamesReader({
          client: base.client,
          contracts: baseContracts,
          reads: new BlockReads({ client: base.client, rpc: p.rpc.base }),
        })
      : undefined;
  const reader = onEthereum || onBase ? new ChainRoutedEnsReader({ ethereum: onEthereum, base: onBase }) : undefined;

  const subgraph =
    p.subgraphUrl === undefined
      ? undefined
      : new EnsSubgraphClient({ url: p.subgraphUrl, mode: 'live', registry: p.registry, timeoutMs: p.timeoutMs });
  let onEthereumDomains: EnsDomainsSource | undefined;
  if (subgraph) {
    onEthereumDomains = subgraph;
  } else if (ethereum.mode === 'local' && ethereum.client && contracts) {
    onEthereumDomains = eventDomains({
      client: ethereum.client,
      names: { parent: 'eth', registry: contracts.registry, registrar: contracts.ethRegistrar },
      name: 'ens-events',
      description: 'ENS names by address: events of the embedded chain (.eth registrar)',
      registry: p.registry,
      timeoutMs: p.timeoutMs,
    });
  }
  const onBaseDomains =
    base.mode === 'local' && base.client && baseContracts?.registrar
      ? eventDomains({
          client: base.client,
          names: { parent: BASE_NAMES_PARENT, registry: baseContracts.registry, registrar: baseContracts.registrar },
          name: 'basenames-events',
          description: 'Base names by address: events of the embedded Base chain (base.eth registrar)',
          registry: p.registry,
          timeoutMs: p.timeoutMs,
        })
      : undefined;
  // Without Ethereum's names the list would be partial: no source at all (503) rather than Base's alone.
  const domains =
    onEthereumDomains && onBaseDomains ? new MergedEnsDomains([onEthereumDomains, onBaseDomains]) : onEthereumDomains;
  const recordKeys = recordKeysSource({
    subgraph,
    index:
      p.recordKeysIndex && ethereum.client && ethereum.mode !== 'absent'
        ? { index: p.recordKeysIndex, mode: ethereum.mode }
        : undefined,
    // The detectors index the embedded Base chain whenever it has a client (createEventDetectors).
    baseIndex: base.mode === 'local' && base.client ? p.recordKeysIndex : undefined,
    ethereum: ethereum.mode === 'local' && contracts ? ethereum.client : undefined,
    base: base.mode === 'local' && baseContracts ? base.client : undefined,
    registry: p.registry,
    timeoutMs: p.timeoutMs,
  });
  return { reader, domains, recordKeys };
}
