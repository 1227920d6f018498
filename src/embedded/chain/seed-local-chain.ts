import {
  type Address,
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  type PublicClient,
  type TestClient,
  type Transport,
  type WalletClient,
} from 'viem';
import type { HDAccount } from 'viem/accounts';
import { localViemChain } from '../../sources/rpc/viem-chains.js';
import { getDevAccounts } from './dev-accounts.js';

/** What every seed step gets: clients to the local chain and the deployments made so far. */
export type SeedContext = {
  publicClient: PublicClient<Transport, Chain>;
  /** Signs and sends as development account 0, the deployer. */
  walletClient: WalletClient<Transport, Chain, HDAccount>;
  /**
   * Sends as any of anvil's development accounts, named by address (`account: '0x…'`): anvil signs with the keys it
   * holds, so no key is derived or used here. `getAddresses()` lists them.
   */
  nodeSigner: WalletClient<Transport, Chain>;
  /** anvil's own methods: setCode, setBalance, mine, setAutomine, impersonation … */
  testClient: TestClient<'anvil', Transport, Chain>;
  /** anvil's ten funded development accounts, index 0 first. */
  accounts: readonly HDAccount[];
  /** Contract addresses by name, filled in by the steps (e.g. 'Multicall3', 'ENSRegistry'). */
  deployments: Map<string, Address>;
  /**
   * Sends JSON-RPC calls to the chain as one batch (one HTTP request) and resolves to their results, in order; throws
   * on the first call that failed. For a step that makes many plain calls (no signing, no formatting to do).
   */
  batch(calls: readonly RpcCall[]): Promise<unknown[]>;
};

/** One JSON-RPC call, as `batch` sends it. */
export type RpcCall = { method: string; params?: readonly unknown[] };

/** One named piece of demo state put on the local chain. */
export type SeedStep = {
  name: string;
  run(context: SeedContext): Promise<void>;
};

export type SeedLocalChainParameters = {
  rpcUrl: string;
  /** Run in order; a later step may use what an earlier one deployed. */
  steps: readonly SeedStep[];
  chainId?: number;
  /** Contract addresses already on the chain (a loaded snapshot's), which the steps may use and add to. */
  deployments?: ReadonlyMap<string, Address>;
  /** Called after each step, e.g. to log its duration. */
  onStepDone?: (name: string, durationMs: number) => void;
};

export class SeedStepError extends Error {
  override name = 'SeedStepError';
}

/**
 * Runs the seed steps against a local chain, in order, and returns the contract addresses they recorded.
 * @example
 * const chain = await startLocalChain()
 * const deployments = await seedLocalChain({ rpcUrl: chain.rpcUrl, steps: [deployMulticall3Step(), feeMarketActivityStep()] })
 */
export async function seedLocalChain({
  rpcUrl,
  steps,
  chainId = 1,
  deployments,
  onStepDone,
}: SeedLocalChainParameters): Promise<Map<string, Address>> {
  const chain = localViemChain({ chainId, rpcUrl });
  // No retries: toward a local node a failure is a bug in the step, and viem would retry reverts for seconds.
  const transport = http(rpcUrl, { retryCount: 0 });
  // Derived on first use (~0.15 s of HD derivation): a step that lets anvil sign needs none.
  let walletClient: SeedContext['walletClient'] | undefined;
  const context: SeedContext = {
    publicClient: createPublicClient({ chain, transport }),
    get walletClient() {
      walletClient ??= createWalletClient({ chain, transport, account: getDevAccounts()[0] });
      return walletClient;
    },
    nodeSigner: createWalletClient({ chain, transport }),
    testClient: createTestClient({ chain, transport, mode: 'anvil' }),
    get accounts() {
      return getDevAccounts();
    },
    deployments: new Map(deployments),
    batch: (calls) => rpcBatch(rpcUrl, calls),
  };
  for (const step of steps) {
    const startedAt = performance.now();
    try {
      await step.run(context);
    } catch (err) {
      throw new SeedStepError(`seed step "${step.name}" failed: ${(err as Error).message}`, { cause: err });
    }
    onStepDone?.(step.name, performance.now() - startedAt);
  }
  return context.deployments;
}

/** The calls as one JSON-RPC batch to `rpcUrl`; their results in the order given (a batch's replies may come in any). */
async function rpcBatch(rpcUrl: string, calls: readonly RpcCall[]): Promise<unknown[]> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(
      calls.map((call, id) => ({ jsonrpc: '2.0', id, method: call.method, params: call.params ?? [] })),
    ),
  });
  const replies = (await response.json()) as { id: number; result?: unknown; error?: { message: string } }[];
  if (!Array.isArray(replies)) throw new Error(`the chain answered a batch with ${JSON.stringify(replies)}`);
  const byId = new Map(replies.map((reply) => [reply.id, reply]));
  return calls.map((call, id) => {
    const reply = byId.get(id);
    if (reply === undefined) throw new Error(`${call.method}: no reply in the batch`);
    if (reply.error) throw new Error(`${call.method}: ${reply.error.message}`);
    return reply.result;
  });
}
