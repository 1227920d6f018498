import { type Account, createPublicClient, createTestClient, createWalletClient, http } from 'viem';
import { localViemChain } from '../../src/sources/rpc/viem-chains.js';

/**
 * viem's three clients on a local anvil chain, without retries: one to read, one to send (as `account` when given,
 * else per call) and anvil's test actions (snapshot, revert, mine, setBalance).
 * @example const { client, wallet, anvil } = localChainClients(chain.rpcUrl, getDevAccounts()[0])
 */
export function localChainClients<account extends Account | undefined = undefined>(rpcUrl: string, account?: account) {
  const chain = localViemChain({ rpcUrl });
  const transport = http(rpcUrl, { retryCount: 0 });
  return {
    client: createPublicClient({ chain, transport }),
    wallet: createWalletClient({ chain, transport, account }),
    anvil: createTestClient({ chain, transport, mode: 'anvil' }),
  };
}
