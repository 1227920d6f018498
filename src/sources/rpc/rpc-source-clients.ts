import { CHAINS, type ChainKey } from '../../config/chains.js';
import { SourceClient } from '../source-client.js';
import type { SourceHealthRegistry } from '../source-health.js';
import type { ChainClients } from './chain-clients.js';

export type RpcSourceClients = Record<ChainKey, SourceClient | undefined>;

/**
 * One SourceClient per chain that has an RPC: cache, breaker and health for chain reads, shown in
 * /api/sources/health as `rpc:<chain>` (local = the embedded anvil chain).
 */
export function createRpcSourceClients(p: {
  chains: ChainClients;
  registry: SourceHealthRegistry;
  timeoutMs: number;
}): RpcSourceClients {
  const entries = CHAINS.map(({ key, name }): [ChainKey, SourceClient | undefined] => {
    const chain = p.chains[key];
    if (chain.mode === 'absent') return [key, undefined];
    const description = chain.mode === 'local' ? `${name} JSON-RPC: embedded local chain (anvil)` : `${name} JSON-RPC`;
    // Chain reads are per block (≈12 s); each read sets its own freshness.
    const policy = {
      name: `rpc:${key}`,
      kind: 'rpc',
      mode: chain.mode,
      description,
      ...(chain.localRpcUrl === undefined ? {} : { rpcUrl: chain.localRpcUrl }),
      freshnessMs: 12_000,
      timeoutMs: p.timeoutMs,
    };
    return [key, new SourceClient({ policy, registry: p.registry })];
  });
  return Object.fromEntries(entries) as RpcSourceClients;
}
