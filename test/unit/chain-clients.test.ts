import { createServer } from 'node:net';
import { multicall3Abi, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainKey } from '../../src/config/chains.js';
import { loadConfig } from '../../src/config/config.js';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { type LocalChain, startLocalChain } from '../../src/embedded/chain/local-chain.js';
import { seedLocalChain } from '../../src/embedded/chain/seed-local-chain.js';
import { deployMulticall3Step } from '../../src/embedded/chain/seed-steps/multicall3.js';
import { ApiError } from '../../src/errors/api-error.js';
import { createChainClients, requireClient } from '../../src/sources/rpc/chain-clients.js';
import { readJsonRpcMethods } from '../../src/sources/rpc/read-json-rpc-methods.js';
import { MULTICALL3_ADDRESS } from '../../src/sources/rpc/viem-chains.js';

const noUrls = loadConfig({}).chains;

/** A loopback port nothing listens on. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe('which client serves each chain', () => {
  it('Ethereum falls back to the local chain; chains without an RPC URL are absent', () => {
    const clients = createChainClients({ chains: noUrls, localRpcUrl: 'http://127.0.0.1:9' });
    expect(clients.ethereum).toMatchObject({ key: 'ethereum', chainId: 1, mode: 'local' });
    expect(clients.ethereum.client?.chain.id).toBe(1);
    for (const key of ['base', 'arbitrum', 'optimism', 'polygon'] as const) {
      expect(clients[key]).toEqual({ key, chainId: noUrls[key].id, mode: 'absent', client: undefined });
    }
  });

  it('a configured RPC URL makes a chain live, with its viem definition and Multicall3 address', () => {
    const chains = loadConfig({ ETH_RPC_URL: 'https://eth.example', BASE_RPC_URL: 'https://base.example' }).chains;
    const clients = createChainClients({ chains, localRpcUrl: 'http://127.0.0.1:9' });
    expect(clients.ethereum.mode).toBe('live');
    expect(clients.base).toMatchObject({ mode: 'live', chainId: 8453 });
    expect(clients.base.client?.chain.id).toBe(8453);
    expect(clients.base.client?.chain.contracts?.multicall3?.address.toLowerCase()).toBe(
      MULTICALL3_ADDRESS.toLowerCase(),
    );
    expect(clients.polygon.mode).toBe('absent');
  });

  it('without a local chain, Ethereum with no RPC URL is absent too', () => {
    expect(createChainClients({ chains: noUrls }).ethereum.mode).toBe('absent');
  });

  it('asking for an absent chain is a 503 SERVICE_UNAVAILABLE', () => {
    const clients = createChainClients({ chains: noUrls });
    try {
      requireClient(clients, 'arbitrum');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        message: 'no RPC configured for arbitrum',
      });
    }
  });
});

describe('JSON-RPC methods in a request body', () => {
  it('reads a single request, every entry of a batch, and nothing from non-JSON-RPC', () => {
    expect(readJsonRpcMethods('{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[]}')).toEqual(['eth_call']);
    expect(
      readJsonRpcMethods(
        JSON.stringify([
          { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
          { jsonrpc: '2.0', id: 2, method: 'eth_call' },
          { jsonrpc: '2.0', id: 3, method: 'eth_call' },
        ]),
      ),
    ).toEqual(['eth_chainId', 'eth_call', 'eth_call']);
    expect(readJsonRpcMethods('not json')).toEqual([]);
    expect(readJsonRpcMethods(undefined)).toEqual([]);
  });
});

describe('requests toward the local chain', () => {
  let chain: LocalChain;
  beforeAll(async () => {
    chain = await startLocalChain();
    await seedLocalChain({ rpcUrl: chain.rpcUrl, steps: [deployMulticall3Step()] });
  });
  afterAll(() => chain?.stop());

  const countingClients = () => {
    const requests: Array<[ChainKey, string]> = [];
    const observed: Array<[ChainKey, number, boolean]> = [];
    const clients = createChainClients({
      chains: noUrls,
      localRpcUrl: chain.rpcUrl,
      onRequest: (key, method) => requests.push([key, method]),
      observe: (key, latencyMs, ok) => observed.push([key, latencyMs, ok]),
    });
    return { client: requireClient(clients, 'ethereum'), requests, observed };
  };
  const balanceRead = (address: `0x${string}`) =>
    ({ address: MULTICALL3_ADDRESS, abi: multicall3Abi, functionName: 'getEthBalance', args: [address] }) as const;

  it('client.multicall of ten reads is exactly one eth_call', async () => {
    const { client, requests } = countingClients();
    const accounts = getDevAccounts();
    const balances = await client.multicall({
      contracts: accounts.map((a) => balanceRead(a.address)),
      allowFailure: false,
    });
    expect(balances).toEqual(accounts.map(() => parseEther('10000')));
    expect(requests).toEqual([['ethereum', 'eth_call']]);
  });

  it('needs the Multicall3 seed step: a bare anvil chain has no Multicall3', async () => {
    const bare = await startLocalChain();
    try {
      const clients = createChainClients({ chains: noUrls, localRpcUrl: bare.rpcUrl });
      expect(await requireClient(clients, 'ethereum').getCode({ address: MULTICALL3_ADDRESS })).toBeUndefined();
    } finally {
      await bare.stop();
    }
  });

  it('a hundred concurrent readContract calls are batched into one eth_call', async () => {
    const { client, requests } = countingClients();
    const accounts = getDevAccounts();
    const reads = Array.from({ length: 100 }, (_, i) =>
      client.readContract(balanceRead(accounts[i % accounts.length].address)),
    );
    const balances = await Promise.all(reads);
    expect(balances).toHaveLength(100);
    expect(new Set(balances)).toEqual(new Set([parseEther('10000')]));
    expect(requests.filter(([, method]) => method === 'eth_call')).toHaveLength(1);
    expect(requests).toHaveLength(1);
  });

  it('observes each round trip with its latency', async () => {
    const { client, observed } = countingClients();
    const started = performance.now();
    await client.getBlockNumber();
    const callMs = performance.now() - started;
    expect(observed).toHaveLength(1);
    const [[key, latencyMs, ok]] = observed;
    expect(key).toBe('ethereum');
    expect(ok).toBe(true);
    // In milliseconds, and of the round trip alone: positive, and no longer than the whole call took.
    expect(latencyMs).toBeGreaterThan(0);
    expect(latencyMs).toBeLessThanOrEqual(callMs);
  });

  it('does not retry toward the local chain, but does toward a live one', async () => {
    const deadUrl = await closedPortUrl();
    const localCalls: string[] = [];
    const liveCalls: string[] = [];
    const observed: boolean[] = [];
    const local = createChainClients({
      chains: noUrls,
      localRpcUrl: deadUrl,
      onRequest: (_chain, method) => localCalls.push(method),
      observe: (_chain, _latencyMs, ok) => observed.push(ok),
    });
    const live = createChainClients({
      chains: loadConfig({ BASE_RPC_URL: deadUrl }).chains,
      onRequest: (_chain, method) => liveCalls.push(method),
    });

    await expect(requireClient(local, 'ethereum').getBlockNumber()).rejects.toThrow();
    await expect(requireClient(live, 'base').getBlockNumber()).rejects.toThrow();
    expect(localCalls).toEqual(['eth_blockNumber']);
    expect(observed).toEqual([false]);
    expect(liveCalls).toEqual(['eth_blockNumber', 'eth_blockNumber', 'eth_blockNumber']);
  });
});
