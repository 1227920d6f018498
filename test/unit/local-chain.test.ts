import { spawn } from 'node:child_process';
import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, http, size } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { publicDevKeys } from '../../src/config/public-dev-keys.js';
import { AnvilBinaryNotFoundError, resolveAnvilBinary } from '../../src/embedded/chain/anvil-binary.js';
import { ANVIL_DEV_MNEMONIC, getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { type LocalChain, LocalChainStartError, startLocalChain } from '../../src/embedded/chain/local-chain.js';
import { SeedStepError, seedLocalChain } from '../../src/embedded/chain/seed-local-chain.js';
import { deployMulticall3Step } from '../../src/embedded/chain/seed-steps/multicall3.js';
import { loadContractArtifact } from '../../src/sources/rpc/contract-artifacts.js';
import { MULTICALL3_ADDRESS } from '../../src/sources/rpc/viem-chains.js';

const started: LocalChain[] = [];
async function start(params?: Parameters<typeof startLocalChain>[0]): Promise<LocalChain> {
  const chain = await startLocalChain(params);
  started.push(chain);
  return chain;
}
afterAll(async () => {
  await Promise.all(started.map((chain) => chain.stop()));
});

const rpc = async (rpcUrl: string, method: string, params: unknown[] = []): Promise<unknown> => {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await response.json()) as { result: unknown }).result;
};

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('anvil binary', () => {
  it('resolves to the executable in the installed platform package', () => {
    expect(resolveAnvilBinary()).toMatch(/@foundry-rs\/anvil-linux-(amd64|arm64)\/bin\/anvil$/);
  });

  it('names the missing platform package when it is not installed', () => {
    expect(() => resolveAnvilBinary({ platform: 'darwin', arch: 'x64' })).toThrow(AnvilBinaryNotFoundError);
    expect(() => resolveAnvilBinary({ platform: 'darwin', arch: 'x64' })).toThrow(/@foundry-rs\/anvil-darwin-amd64/);
    expect(() => resolveAnvilBinary({ arch: 'ia32' })).toThrow(/ia32/);
  });
});

describe('local chain', () => {
  it('starts on an ephemeral 127.0.0.1 port and answers chain ID 1', async () => {
    const chain = await start();
    expect(chain.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new URL(chain.rpcUrl).port).not.toBe('8545');
    expect(chain.chainId).toBe(1);
    expect(await rpc(chain.rpcUrl, 'eth_chainId')).toBe('0x1');
  });

  it('runs two chains side by side on different ports, each with its own state', async () => {
    const [first, second] = await Promise.all([start(), start({ chainId: 31337 })]);
    expect(first.rpcUrl).not.toBe(second.rpcUrl);
    expect(await rpc(first.rpcUrl, 'eth_chainId')).toBe('0x1');
    expect(await rpc(second.rpcUrl, 'eth_chainId')).toBe('0x7a69');

    await rpc(first.rpcUrl, 'evm_mine');
    expect(await rpc(first.rpcUrl, 'eth_blockNumber')).toBe('0x1');
    expect(await rpc(second.rpcUrl, 'eth_blockNumber')).toBe('0x0');
  });

  it('stop() ends the anvil process and closes its port', async () => {
    const chain = await startLocalChain();
    expect(isRunning(chain.pid)).toBe(true);
    await chain.stop();
    expect(isRunning(chain.pid)).toBe(false);
    await expect(rpc(chain.rpcUrl, 'eth_chainId')).rejects.toThrow();
    await chain.stop(); // a second stop is harmless
  });

  it('dies with the process that started it, even one killed with SIGKILL (no orphaned chains)', async () => {
    const loader = join(import.meta.dirname, '..', 'helpers', 'ts-loader', 'register.mjs');
    const worker = spawn(
      process.execPath,
      ['--import', loader, join(import.meta.dirname, 'workers', 'local-chain-worker.ts')],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const rpcUrl = await new Promise<string>((resolve, reject) => {
      worker.stdout.setEncoding('utf8').on('data', (line: string) => resolve(line.trim()));
      worker.once('exit', () => reject(new Error('worker exited early')));
    });
    expect(await rpc(rpcUrl, 'eth_chainId')).toBe('0x1');
    worker.kill('SIGKILL');
    const deadline = Date.now() + 5000;
    let answering = true;
    while (answering && Date.now() < deadline) {
      answering = await rpc(rpcUrl, 'eth_chainId').then(
        () => true,
        () => false,
      );
      if (answering) await new Promise((r) => setTimeout(r, 100));
    }
    expect(answering).toBe(false);
  });

  it('keeps answering after logging more than a pipe buffer of requests (stdout is drained)', async () => {
    const chain = await start();
    // anvil writes each method name (~15 bytes) to stdout: 10 × 1000 calls ≈ 150 KB, well past a 64 KB pipe.
    const batch = JSON.stringify(
      Array.from({ length: 1000 }, (_, id) => ({
        jsonrpc: '2.0',
        id,
        method: 'eth_getBalance',
        params: [getDevAccounts()[0].address, 'latest'],
      })),
    );
    for (let round = 0; round < 10; round++) {
      const response = await fetch(chain.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: batch,
      });
      expect(((await response.json()) as unknown[]).length).toBe(1000);
    }
    expect(await rpc(chain.rpcUrl, 'eth_chainId')).toBe('0x1');
  });

  it('fails with anvil stderr in the error when the node cannot start', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fake-anvil-'));
    const fakeAnvil = join(dir, 'anvil');
    await writeFile(fakeAnvil, '#!/bin/sh\necho "error: address already in use" >&2\nexit 1\n');
    await chmod(fakeAnvil, 0o755);
    const failure = startLocalChain({ anvilPath: fakeAnvil });
    await expect(failure).rejects.toThrow(LocalChainStartError);
    await expect(failure).rejects.toThrow(/address already in use/);
  });

  it('fails clearly when the executable does not exist', async () => {
    await expect(startLocalChain({ anvilPath: '/nonexistent/anvil' })).rejects.toThrow(
      /anvil exited before listening[\s\S]*cannot execute \/nonexistent\/anvil/,
    );
  });

  it('gives up after the start timeout when the node never reports a port', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'silent-anvil-'));
    const silentAnvil = join(dir, 'anvil');
    await writeFile(silentAnvil, '#!/bin/sh\necho "still booting" >&2\nexec sleep 30\n');
    await chmod(silentAnvil, 0o755);
    // The fake node sleeps 30 s: a refusal naming the 300 ms timeout is the start timeout's, not the node's exit.
    await expect(startLocalChain({ anvilPath: silentAnvil, startTimeoutMs: 300 })).rejects.toThrow(
      /within 300 ms[\s\S]*still booting/,
    );
  });
});

describe('development accounts', () => {
  it("are the ten accounts anvil funds, derived from the public mnemonic like viem's mnemonicToAccount", async () => {
    const accounts = getDevAccounts();
    expect(accounts).toHaveLength(10);
    for (const index of [0, 4, 9]) {
      expect(accounts[index].address).toBe(mnemonicToAccount(ANVIL_DEV_MNEMONIC, { addressIndex: index }).address);
    }
    // The same keys the live guard refuses as a receiver or signer (src/config/public-dev-keys.ts).
    expect(
      publicDevKeys()
        .slice(0, 10)
        .map((k) => k.address),
    ).toEqual(accounts.map((a) => a.address));

    const chain = await start();
    const nodeAccounts = (await rpc(chain.rpcUrl, 'eth_accounts')) as string[];
    expect(nodeAccounts.map((a) => a.toLowerCase())).toEqual(accounts.map((a) => a.address.toLowerCase()));
  });
});

describe('seeding the local chain', () => {
  it('runs the steps in order, sharing one deployments map, and returns it', async () => {
    const chain = await start();
    const order: string[] = [];
    const deployments = await seedLocalChain({
      rpcUrl: chain.rpcUrl,
      steps: [
        deployMulticall3Step(),
        {
          name: 'reads-what-the-previous-step-recorded',
          async run({ deployments, walletClient, accounts }) {
            order.push(`second saw ${deployments.get('Multicall3')}`);
            expect(walletClient.account.address).toBe(accounts[0].address);
          },
        },
      ],
      onStepDone: (name) => order.push(name),
    });
    expect(order).toEqual(['multicall3', `second saw ${MULTICALL3_ADDRESS}`, 'reads-what-the-previous-step-recorded']);
    expect(deployments.get('Multicall3')).toBe(MULTICALL3_ADDRESS);

    const client = createPublicClient({ transport: http(chain.rpcUrl, { retryCount: 0 }) });
    const code = await client.getCode({ address: MULTICALL3_ADDRESS });
    expect(code && size(code)).toBeGreaterThan(0);
    expect(code).toBe(loadContractArtifact('Multicall3').deployedBytecode);
    expect(await client.getBlockNumber()).toBe(0n); // placed with anvil_setCode: no transaction mined
  });

  it('names the step that failed', async () => {
    const chain = await start();
    const failing = seedLocalChain({
      rpcUrl: chain.rpcUrl,
      steps: [{ name: 'broken-step', run: async () => Promise.reject(new Error('no bytecode')) }],
    });
    await expect(failing).rejects.toThrow(SeedStepError);
    await expect(failing).rejects.toThrow('seed step "broken-step" failed: no bytecode');
  });
});
