import { type Account, createPublicClient, createTestClient, createWalletClient, http } from 'viem';
import { type LocalChainContracts, localViemChain } from '../../src/sources/rpc/viem-chains.js';

/**
 * A local anvil chain: its RPC URL, or that with what else viem must know of it (the embedded Base chain's id 8453,
 * a seeded Universal Resolver).
 */
export type LocalChainAt = string | { rpcUrl: string; chainId?: number; contracts?: LocalChainContracts };

/**
 * viem's three clients on a local anvil chain, without retries: one to read, one to send (as `account` when given,
 * else per call) and anvil's test actions (snapshot, revert, mine, setBalance).
 * @example const { client, wallet, anvil } = localChainClients(chain.rpcUrl, getDevAccounts()[0])
 * @example const { anvil } = localChainClients({ rpcUrl: baseRpcUrl, chainId: 8453 })
 */
export function localChainClients<account extends Account | undefined = undefined>(
  at: LocalChainAt,
  account?: account,
) {
  const options = typeof at === 'string' ? { rpcUrl: at } : at;
  const chain = localViemChain(options);
  const transport = http(options.rpcUrl, { retryCount: 0 });
  return {
    client: createPublicClient({ chain, transport }),
    wallet: createWalletClient({ chain, transport, account }),
    anvil: createTestClient({ chain, transport, mode: 'anvil' }),
  };
}
