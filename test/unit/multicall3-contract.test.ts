import {
  type AbiFunction,
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  encodeFunctionData,
  type Hex,
  multicall3Abi,
  parseAbi,
  toFunctionSelector,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { type LocalChain, startLocalChain } from '../../src/embedded/chain/local-chain.js';
import { seedLocalChain } from '../../src/embedded/chain/seed-local-chain.js';
import { deployMulticall3Step } from '../../src/embedded/chain/seed-steps/multicall3.js';
import { loadContractArtifact } from '../../src/sources/rpc/contract-artifacts.js';
import { MULTICALL3_ADDRESS } from '../../src/sources/rpc/viem-chains.js';
import { localChainClients } from '../helpers/local-chain-clients.js';

const artifact = loadContractArtifact('Multicall3');

/**
 * The canonical Multicall3 signatures our contract implements; calling through them proves the selectors match.
 * aggregate3 is payable on chain; declared view here (as viem's multicall3Abi does) so readContract accepts it.
 */
const abi = parseAbi([
  'struct Call3 { address target; bool allowFailure; bytes callData; }',
  'struct Result { bool success; bytes returnData; }',
  'function aggregate3(Call3[] calls) view returns (Result[] returnData)',
  'function getBlockNumber() view returns (uint256 blockNumber)',
  'function getCurrentBlockTimestamp() view returns (uint256 timestamp)',
  'function getEthBalance(address addr) view returns (uint256 balance)',
  'function getBasefee() view returns (uint256 basefee)',
  'function getChainId() view returns (uint256 chainid)',
]);

/** Bytes no function of Multicall3 answers to; with no fallback, calling them reverts with empty data. */
const UNKNOWN_SELECTOR: Hex = '0xdeadbeef';

const selectors = (items: readonly unknown[]) =>
  (items as AbiFunction[]).filter((item) => item.type === 'function').map((item) => toFunctionSelector(item));

const clientsFor = (rpcUrl: string) => localChainClients(rpcUrl, getDevAccounts()[0]);

let chain: LocalChain;
let client: ReturnType<typeof clientsFor>['client'];
let wallet: ReturnType<typeof clientsFor>['wallet'];
let anvil: ReturnType<typeof clientsFor>['anvil'];

beforeAll(async () => {
  chain = await startLocalChain();
  await seedLocalChain({ rpcUrl: chain.rpcUrl, steps: [deployMulticall3Step()] });
  ({ client, wallet, anvil } = clientsFor(chain.rpcUrl));
});
afterAll(() => chain?.stop());

const balanceCall = (address: Address, allowFailure: boolean) =>
  ({
    target: MULTICALL3_ADDRESS,
    allowFailure,
    callData: encodeFunctionData({ abi, functionName: 'getEthBalance', args: [address] }),
  }) as const;
const revertingCall = (allowFailure: boolean) =>
  ({ target: MULTICALL3_ADDRESS, allowFailure, callData: UNKNOWN_SELECTOR }) as const;

describe('our Multicall3 contract', () => {
  it('has exactly the canonical selectors of aggregate3 and the read helpers, including all that viem calls', () => {
    const ours = selectors(artifact.abi);
    expect(ours.sort()).toEqual(selectors(abi).sort());
    expect(ours).toEqual(expect.arrayContaining(selectors(multicall3Abi)));
  });

  it('is the runtime code at the canonical address after the seed step', async () => {
    expect(await client.getCode({ address: MULTICALL3_ADDRESS })).toBe(artifact.deployedBytecode);
  });

  it('its creation code deploys the same runtime code', async () => {
    const hash = await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    expect(receipt.status).toBe('success');
    expect(await client.getCode({ address: receipt.contractAddress! })).toBe(artifact.deployedBytecode);
  });
});

describe('aggregate3', () => {
  it('returns each call’s success and return data, in order', async () => {
    const accounts = getDevAccounts();
    const results = await client.readContract({
      address: MULTICALL3_ADDRESS,
      abi,
      functionName: 'aggregate3',
      args: [[balanceCall(accounts[0].address, false), balanceCall(accounts[1].address, false)]],
    });
    expect(results).toHaveLength(2);
    expect(results.map((r) => r.success)).toEqual([true, true]);
    expect(results.map((r) => BigInt(r.returnData))).toEqual([
      await client.getBalance({ address: accounts[0].address }),
      await client.getBalance({ address: accounts[1].address }),
    ]);
  });

  it('with allowFailure true, a reverting call answers success=false and the others still answer', async () => {
    const [account] = getDevAccounts();
    const results = await client.readContract({
      address: MULTICALL3_ADDRESS,
      abi,
      functionName: 'aggregate3',
      args: [[balanceCall(account.address, true), revertingCall(true), balanceCall(account.address, true)]],
    });
    expect(results.map((r) => r.success)).toEqual([true, false, true]);
    expect(results[1].returnData).toBe('0x');
    expect(BigInt(results[2].returnData)).toBe(await client.getBalance({ address: account.address }));
  });

  it('returns the revert data of a failed call', async () => {
    // The inner aggregate3 fails (its call 0 reverts and may not); the outer one reports that revert.
    const innerCallData = encodeFunctionData({ abi, functionName: 'aggregate3', args: [[revertingCall(false)]] });
    const [result] = await client.readContract({
      address: MULTICALL3_ADDRESS,
      abi,
      functionName: 'aggregate3',
      args: [[{ target: MULTICALL3_ADDRESS, allowFailure: true, callData: innerCallData }]],
    });
    expect(result.success).toBe(false);
    // Error(string) selector, then the ABI-encoded reason
    expect(result.returnData.startsWith('0x08c379a0')).toBe(true);
  });

  it('with allowFailure false, a reverting call reverts the whole batch with a reason naming it', async () => {
    const [account] = getDevAccounts();
    const call = client.readContract({
      address: MULTICALL3_ADDRESS,
      abi,
      functionName: 'aggregate3',
      args: [[balanceCall(account.address, false), revertingCall(false)]],
    });
    const error = await call.then(
      () => expect.unreachable('aggregate3 should have reverted'),
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(BaseError);
    const revert = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError);
    expect(revert).toBeInstanceOf(ContractFunctionRevertedError);
    expect((revert as ContractFunctionRevertedError).reason).toBe('Multicall3: call 1 failed');
  });

  it('a failure allowed by its own flag does not revert the batch even when others may not fail', async () => {
    const [account] = getDevAccounts();
    const results = await client.readContract({
      address: MULTICALL3_ADDRESS,
      abi,
      functionName: 'aggregate3',
      args: [[revertingCall(true), balanceCall(account.address, false)]],
    });
    expect(results.map((r) => r.success)).toEqual([false, true]);
  });

  it('an empty batch returns an empty list', async () => {
    expect(
      await client.readContract({ address: MULTICALL3_ADDRESS, abi, functionName: 'aggregate3', args: [[]] }),
    ).toEqual([]);
  });
});

describe('read helpers', () => {
  it('getEthBalance answers the balance of any address', async () => {
    const address: Address = '0x00000000000000000000000000000000000c0ffe';
    const read = () =>
      client.readContract({ address: MULTICALL3_ADDRESS, abi, functionName: 'getEthBalance', args: [address] });
    expect(await read()).toBe(0n);
    await anvil.setBalance({ address, value: 0x1234n });
    expect(await read()).toBe(0x1234n);
    expect(await read()).toBe(await client.getBalance({ address }));
  });

  it('getBlockNumber, getCurrentBlockTimestamp, getBasefee and getChainId answer those of the block read', async () => {
    await anvil.mine({ blocks: 3 });
    const block = await client.getBlock();
    const at = { address: MULTICALL3_ADDRESS, abi, blockNumber: block.number } as const;
    expect(await client.readContract({ ...at, functionName: 'getBlockNumber' })).toBe(block.number);
    expect(await client.readContract({ ...at, functionName: 'getCurrentBlockTimestamp' })).toBe(block.timestamp);
    expect(await client.readContract({ ...at, functionName: 'getChainId' })).toBe(1n);
    expect(await client.readContract({ ...at, functionName: 'getBasefee' })).toBe(block.baseFeePerGas);
    expect(await client.readContract({ address: MULTICALL3_ADDRESS, abi, functionName: 'getBlockNumber' })).toBe(
      // viem caches getBlockNumber for its polling interval; ask the chain itself.
      await client.getBlockNumber({ cacheTime: 0 }),
    );
  });
});
