import { type Chain, createPublicClient, type PublicClient, type Transport } from 'viem';
import { CHAINS, type ChainKey } from '../../config/chains.js';
import type { AppConfig } from '../../config/config.js';
import { serviceUnavailable } from '../../errors/api-error.js';
import { jsonRpcTransport } from './json-rpc-transport.js';
import { type LocalChainContracts, localViemChain, VIEM_CHAINS } from './viem-chains.js';

/** live: a configured RPC URL · local: the embedded anvil chain · absent: nothing configured. */
export type ChainClientMode = 'live' | 'local' | 'absent';

export type ChainRpcClient = PublicClient<Transport, Chain>;

export type ChainClient = {
  key: ChainKey;
  chainId: number;
  mode: ChainClientMode;
  client: ChainRpcClient | undefined;
  /** The embedded chain's loopback URL, for a local chain only (a live URL may carry a key: it is never kept here). */
  localRpcUrl?: string;
};

export type ChainClients = Record<ChainKey, ChainClient>;

export type CreateChainClientsParameters = {
  chains: AppConfig['chains'];
  /** The embedded local chain; serves Ethereum when no Ethereum RPC URL is configured. */
  localRpcUrl?: string | undefined;
  /** The embedded Base chain (the local x402 facilitator's, chain id 8453); serves Base when no Base RPC URL is configured. */
  localBaseRpcUrl?: string | undefined;
  /** Contracts the local chain seed deployed (its ENS Universal Resolver), for the local chain's viem definition. */
  localContracts?: LocalChainContracts | undefined;
  /** Per-request timeout toward the RPC endpoint (config `upstreamTimeoutMs`). */
  timeoutMs?: number;
  /** Called once per JSON-RPC method sent upstream (once per entry of a JSON-RPC batch). */
  onRequest?: (chain: ChainKey, method: string, params?: unknown) => void;
  /** Called once per HTTP round trip with its latency; ok is false for network errors, timeouts and non-2xx. */
  observe?: (chain: ChainKey, latencyMs: number, ok: boolean) => void;
};

// Multicall3 calldata budget per eth_call: ~100 ENS reads fit in one call (viem's default of 1 KB fits about two).
const MULTICALL_BATCH_BYTES = 131_072;
// A live endpoint gets a couple of retries for transient 5xx/429; the local chain none, as viem would also
// retry reverts there for seconds.
const LIVE_RETRY_COUNT = 2;

/**
 * One viem public client per supported chain: live where an RPC URL is configured, the embedded chains for Ethereum
 * and Base when they run, absent otherwise. Concurrent reads are batched into one Multicall3 `eth_call`.
 * @example
 * const clients = createChainClients({ chains: config.chains, localRpcUrl: localChain.rpcUrl })
 * const blockNumber = await requireClient(clients, 'ethereum').getBlockNumber()
 */
export function createChainClients({
  chains,
  localRpcUrl,
  localBaseRpcUrl,
  localContracts,
  timeoutMs = 5000,
  onRequest,
  observe,
}: CreateChainClientsParameters): ChainClients {
  const entries = CHAINS.map(({ key }): [ChainKey, ChainClient] => {
    const endpoint = chains[key];
    const liveUrl = endpoint.rpcUrl;
    const localUrl = key === 'ethereum' ? localRpcUrl : key === 'base' ? localBaseRpcUrl : undefined;
    const url = liveUrl ?? localUrl;
    if (!url) return [key, { key, chainId: endpoint.id, mode: 'absent', client: undefined }];

    const mode: ChainClientMode = liveUrl ? 'live' : 'local';
    const chain =
      mode === 'live'
        ? VIEM_CHAINS[key]
        : localViemChain({ chainId: endpoint.id, rpcUrl: url, contracts: key === 'ethereum' ? localContracts : {} });
    const client = createPublicClient({
      chain,
      transport: jsonRpcTransport(url, {
        retryCount: mode === 'live' ? LIVE_RETRY_COUNT : 0,
        timeoutMs,
        observers: {
          onRequest: (method, params) => onRequest?.(key, method, params),
          observe: (latencyMs, ok) => observe?.(key, latencyMs, ok),
        },
      }),
      batch: { multicall: { batchSize: MULTICALL_BATCH_BYTES, wait: 0 } },
    });
    return [key, { key, chainId: endpoint.id, mode, client, ...(mode === 'local' ? { localRpcUrl: url } : {}) }];
  });
  return Object.fromEntries(entries) as ChainClients;
}

/**
 * The client for a chain, or SERVICE_UNAVAILABLE (503) when no RPC is configured for it.
 * @example const client = requireClient(clients, 'base')
 */
export function requireClient(clients: ChainClients, key: ChainKey): ChainRpcClient {
  const { client } = clients[key];
  if (!client) throw serviceUnavailable(`no RPC configured for ${key}`);
  return client;
}
