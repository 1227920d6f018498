import { type FeeHistory, parseGwei } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { type LocalChain, startLocalChain } from '../../src/embedded/chain/local-chain.js';
import { seedLocalChain } from '../../src/embedded/chain/seed-local-chain.js';
import { feeMarketActivityStep } from '../../src/embedded/chain/seed-steps/fee-market-activity.js';
import { deployMulticall3Step } from '../../src/embedded/chain/seed-steps/multicall3.js';
import { ApiError } from '../../src/errors/api-error.js';
import { createChainClients, requireClient } from '../../src/sources/rpc/chain-clients.js';
import { readGasPrices } from '../../src/sources/rpc/gas-oracle.js';
import { gasPricesFromFeeHistory } from '../../src/sources/rpc/gas-prices-from-fee-history.js';

const gwei = (value: string): bigint => parseGwei(value);

describe('gas prices from a fee history reply', () => {
  const feeHistory: FeeHistory = {
    oldestBlock: 100n,
    gasUsedRatio: [0.5, 0, 0.6, 0.4],
    // one base fee per block, plus the next block's
    baseFeePerGas: [gwei('10'), gwei('11'), gwei('10'), gwei('12'), gwei('12.5')],
    reward: [
      [gwei('1'), gwei('1.5'), gwei('2')],
      [0n, 0n, 0n], // an empty block: left out of the averages
      [gwei('2'), gwei('2.5'), gwei('4')],
      [gwei('0.6'), gwei('2'), gwei('3')],
    ],
  };

  it('averages each percentile over the tipped blocks and adds twice the next base fee', () => {
    expect(gasPricesFromFeeHistory({ chainId: 1, feeHistory })).toEqual({
      chainId: 1,
      blockNumber: 103,
      baseFeeGwei: '12.5',
      slow: { maxPriorityFeePerGas: '1.2', maxFeePerGas: '26.2' },
      standard: { maxPriorityFeePerGas: '2', maxFeePerGas: '27' },
      fast: { maxPriorityFeePerGas: '3', maxFeePerGas: '28' },
    });
  });

  it('gives zero tips when every block is empty', () => {
    const idle: FeeHistory = {
      oldestBlock: 7n,
      gasUsedRatio: [0, 0],
      baseFeePerGas: [gwei('1'), gwei('0.875'), gwei('0.765625')],
      reward: [
        [0n, 0n, 0n],
        [0n, 0n, 0n],
      ],
    };
    const prices = gasPricesFromFeeHistory({ chainId: 8453, feeHistory: idle });
    expect(prices.blockNumber).toBe(8);
    expect(prices.baseFeeGwei).toBe('0.765625');
    expect(prices.standard).toEqual({ maxPriorityFeePerGas: '0', maxFeePerGas: '1.53125' });
  });

  it('truncates averages to whole wei', () => {
    const tiny: FeeHistory = {
      oldestBlock: 1n,
      gasUsedRatio: [0.1, 0.1],
      baseFeePerGas: [7n, 7n, 7n],
      reward: [
        [1n, 1n, 1n],
        [2n, 2n, 4n],
      ],
    };
    const prices = gasPricesFromFeeHistory({ chainId: 1, feeHistory: tiny });
    expect(prices.slow).toEqual({ maxPriorityFeePerGas: '0.000000001', maxFeePerGas: '0.000000015' });
    expect(prices.fast).toEqual({ maxPriorityFeePerGas: '0.000000002', maxFeePerGas: '0.000000016' });
  });

  it('refuses a malformed reply with SERVICE_UNAVAILABLE', () => {
    const withoutRewards: FeeHistory = { ...feeHistory, reward: undefined };
    const empty: FeeHistory = { oldestBlock: 0n, gasUsedRatio: [], baseFeePerGas: [], reward: [] };
    for (const bad of [withoutRewards, empty]) {
      try {
        gasPricesFromFeeHistory({ chainId: 1, feeHistory: bad });
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(ApiError);
        expect((err as ApiError).status).toBe(503);
        expect((err as ApiError).code).toBe('SERVICE_UNAVAILABLE');
      }
    }
  });
});

describe('gas prices read from the seeded local chain', () => {
  let chain: LocalChain;
  beforeAll(async () => {
    chain = await startLocalChain();
    await seedLocalChain({ rpcUrl: chain.rpcUrl, steps: [deployMulticall3Step(), feeMarketActivityStep()] });
  });
  afterAll(() => chain?.stop());

  it('seeds a fixed amount of work: the twelve blocks it fills are all that is mined, none while waiting', async () => {
    const clients = createChainClients({ chains: loadConfig({}).chains, localRpcUrl: chain.rpcUrl });
    expect(await requireClient(clients, 'ethereum').getBlockNumber()).toBe(12n);
  });

  it('has recent blocks with several transactions and varied tips', async () => {
    const clients = createChainClients({ chains: loadConfig({}).chains, localRpcUrl: chain.rpcUrl });
    const client = requireClient(clients, 'ethereum');
    const history = await client.getFeeHistory({ blockCount: 20, blockTag: 'latest', rewardPercentiles: [10, 50, 90] });
    const tipped = history.reward!.filter((row) => row.some((tip) => tip > 0n));
    expect(tipped.length).toBe(12);
    expect(new Set(tipped.flat()).size).toBeGreaterThan(2);
    const latest = await client.getBlock({ blockTag: 'latest' });
    expect(latest.transactions.length).toBe(4);
  });

  it('readGasPrices makes one eth_feeHistory call and orders slow ≤ standard ≤ fast', async () => {
    const methods: string[] = [];
    const clients = createChainClients({
      chains: loadConfig({}).chains,
      localRpcUrl: chain.rpcUrl,
      onRequest: (_chain, method) => methods.push(method),
    });
    const prices = await readGasPrices(requireClient(clients, 'ethereum'));
    expect(methods).toEqual(['eth_feeHistory']);

    expect(prices.chainId).toBe(1);
    expect(prices.blockNumber).toBe(Number(await requireClient(clients, 'ethereum').getBlockNumber()));
    const tips = [prices.slow, prices.standard, prices.fast].map((speed) => gwei(speed.maxPriorityFeePerGas));
    expect(tips[0]).toBeGreaterThanOrEqual(gwei('1'));
    expect(tips[0]).toBeLessThan(tips[1]);
    expect(tips[1]).toBeLessThan(tips[2]);
    expect(tips[2]).toBeLessThanOrEqual(gwei('3'));
    for (const speed of [prices.slow, prices.standard, prices.fast]) {
      expect(gwei(speed.maxFeePerGas)).toBe(2n * gwei(prices.baseFeeGwei) + gwei(speed.maxPriorityFeePerGas));
    }
  });

  it('turns an unreachable RPC into SERVICE_UNAVAILABLE without leaking its URL', async () => {
    const stopped = await startLocalChain();
    await stopped.stop();
    const clients = createChainClients({
      chains: loadConfig({ ETH_RPC_URL: `${stopped.rpcUrl}/?apikey=secret` }).chains,
    });
    const failure = readGasPrices(requireClient(clients, 'ethereum'));
    await expect(failure).rejects.toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    await expect(failure).rejects.not.toThrow(/secret/);
  });
});
