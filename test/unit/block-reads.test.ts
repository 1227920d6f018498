import { type Address, hexToBigInt, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { type LocalChain, startLocalChain } from '../../src/embedded/chain/local-chain.js';
import { ApiError } from '../../src/errors/api-error.js';
import { markAsked } from '../../src/sources/rpc/asked-at.js';
import { BlockReads } from '../../src/sources/rpc/block-reads.js';
import { type ChainRpcClient, createChainClients, requireClient } from '../../src/sources/rpc/chain-clients.js';
import { SourceClient } from '../../src/sources/source-client.js';
import { SourceHealthRegistry } from '../../src/sources/source-health.js';
import { localChainClients } from '../helpers/local-chain-clients.js';

describe('reads exact for the head block, made once per block (docs/api-contract.md#data-freshness)', () => {
  let chain: LocalChain;
  let client: ChainRpcClient;
  let reads: BlockReads;
  const methods: string[] = [];
  const [funder, watched] = getDevAccounts().map((a) => a.address) as [Address, Address];
  const watchedAddress: Address = '0x00000000000000000000000000000000000b10c5';
  const minedBetween: Address = '0x00000000000000000000000000000000000b10c6';
  // A plain eth_getBalance: the bare chain has no Multicall3 for viem's batched getBalance.
  const balanceOf = (address: Address) => async () =>
    hexToBigInt(await client.request({ method: 'eth_getBalance', params: [address, 'latest'] }));
  const count = (method: string) => methods.filter((m) => m === method).length;

  beforeAll(async () => {
    chain = await startLocalChain();
    const clients = createChainClients({
      chains: loadConfig({}).chains,
      localRpcUrl: chain.rpcUrl,
      onRequest: (_chain, method) => methods.push(method),
    });
    client = requireClient(clients, 'ethereum');
    const rpc = new SourceClient({
      policy: { name: 'rpc:ethereum', kind: 'rpc', mode: 'local', freshnessMs: 12_000, timeoutMs: 2_000, retries: 0 },
      registry: new SourceHealthRegistry(),
    });
    reads = new BlockReads({ client, rpc });
  });
  afterAll(async () => {
    await chain?.stop();
  });

  it('reads started together learn the head with one eth_blockNumber and read the chain once', async () => {
    methods.length = 0;
    const values = await Promise.all([1, 2, 3].map(() => reads.read('balance:watched', balanceOf(watched))));
    expect(new Set(values).size).toBe(1);
    expect(count('eth_blockNumber')).toBe(1);
    expect(count('eth_getBalance')).toBe(1);
  });

  it('the same read at the same head is answered without reading the chain again', async () => {
    methods.length = 0;
    await reads.read('balance:watched', balanceOf(watched));
    expect(count('eth_blockNumber')).toBe(1);
    expect(count('eth_getBalance')).toBe(0);
  });

  it('a block mined before the read is always seen: the value is read again at the new head', async () => {
    expect(await reads.read('balance:fresh', balanceOf(watchedAddress))).toBe(0n);
    // A transfer from a funded dev account, mined by anvil into the next block; the caller waits until it is mined.
    // Through clients of their own: the reads' client counts only the reads' requests.
    const { client: reader, wallet } = localChainClients(chain.rpcUrl);
    const hash = await wallet.sendTransaction({ account: funder, to: watchedAddress, value: parseEther('1.5') });
    await reader.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    methods.length = 0;
    expect(await reads.read('balance:fresh', balanceOf(watchedAddress))).toBe(parseEther('1.5'));
    expect(count('eth_getBalance')).toBe(1);
  });

  it('reads made for no request learn the head anew each turn', async () => {
    methods.length = 0;
    await reads.read('balance:watched', balanceOf(watched));
    await reads.read('balance:watched', balanceOf(watched));
    expect(count('eth_blockNumber')).toBe(2);
  });

  it('one request resolving in several rounds makes one eth_blockNumber: each round takes the head read started after the request arrived', async () => {
    const askedAt = markAsked();
    methods.length = 0;
    await reads.read('balance:round-1', balanceOf(watched), askedAt);
    await reads.read('balance:round-2', balanceOf(funder), askedAt);
    await reads.read('balance:round-3', balanceOf(watchedAddress), askedAt);
    expect(count('eth_blockNumber')).toBe(1);
    expect(count('eth_getBalance')).toBe(3);
  });

  it('a head read another request started after this one arrived is exact for this one too, and shared', async () => {
    const first = markAsked();
    const second = markAsked();
    methods.length = 0;
    await reads.read('balance:first', balanceOf(watched), first);
    await reads.read('balance:second', balanceOf(funder), second);
    expect(count('eth_blockNumber')).toBe(1);
  });

  it('a head read started before a request arrived is not reused for it', async () => {
    await reads.read('balance:before', balanceOf(watched), markAsked());
    const arrived = markAsked();
    methods.length = 0;
    await reads.read('balance:after', balanceOf(watched), arrived);
    expect(count('eth_blockNumber')).toBe(1);
  });

  it('a block mined before the request arrived is never missed: a head read made for an earlier request is not taken', async () => {
    const earlier = markAsked();
    expect(await reads.read('balance:mined-between', balanceOf(minedBetween), earlier)).toBe(0n);
    const { client: reader, wallet } = localChainClients(chain.rpcUrl);
    const hash = await wallet.sendTransaction({ account: funder, to: minedBetween, value: parseEther('0.25') });
    await reader.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    const later = markAsked();
    expect(await reads.read('balance:mined-between', balanceOf(minedBetween), later)).toBe(parseEther('0.25'));
  });

  it('when the head cannot be read, a value read before is served (stale-if-error), anything else is a 503', async () => {
    await chain.stop();
    expect(await reads.read('balance:fresh', balanceOf(watchedAddress))).toBe(parseEther('1.5'));
    const never = reads.read('balance:never-read', balanceOf(funder));
    await expect(never).rejects.toBeInstanceOf(ApiError);
    await expect(never).rejects.toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
  });
});
