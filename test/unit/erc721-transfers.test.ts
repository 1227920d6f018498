import { type Abi, type Address, type Hex, labelhash, parseEventLogs, zeroAddress } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { type LocalChain, startLocalChain } from '../../src/embedded/chain/local-chain.js';
import { seedLocalChain } from '../../src/embedded/chain/seed-local-chain.js';
import { demoAssetAddresses, demoAssetsStep } from '../../src/embedded/chain/seed-steps/demo-assets.js';
import { ensStep, localEnsAddresses } from '../../src/embedded/chain/seed-steps/ens.js';
import { deployMulticall3Step } from '../../src/embedded/chain/seed-steps/multicall3.js';
import { loadContractArtifact } from '../../src/sources/rpc/contract-artifacts.js';
import { MULTICALL3_ADDRESS } from '../../src/sources/rpc/viem-chains.js';
import { localChainClients } from '../helpers/local-chain-clients.js';

/** The two ERC-721s of the embedded chain, both built on contracts/Erc721Transfers.sol, and what tells them apart. */
const TOKENS = [
  {
    contract: 'DemoCollectible',
    address: () => demoAssetAddresses().collectible,
    /** Token 1 of the seed, held by dev account 1. */
    tokenId: 1n,
    notAuthorized: 'NotAuthorized',
    /** A token never minted. */
    missing: 99n,
    notLive: 'NonexistentToken',
  },
  {
    contract: 'EthNameRegistrar',
    address: () => localEnsAddresses().ethRegistrar,
    /** alice.eth of the seed, registered to dev account 1. */
    tokenId: BigInt(labelhash('alice')),
    notAuthorized: 'NotRegistrant',
    /** A name never registered. */
    missing: BigInt(labelhash('nobody')),
    notLive: 'NameExpired',
  },
] as const;

const accounts = getDevAccounts();
const [holder, spender, operator, stranger, receiver] = [1, 5, 6, 7, 8].map((i) => accounts[i]!);

let chain: LocalChain;
let clients: ReturnType<typeof localChainClients>;
let snapshot: Hex;

beforeAll(async () => {
  chain = await startLocalChain();
  await seedLocalChain({ rpcUrl: chain.rpcUrl, steps: [deployMulticall3Step(), ensStep(), demoAssetsStep()] });
  clients = localChainClients(chain.rpcUrl);
});
afterAll(() => chain?.stop());
beforeEach(async () => {
  if (snapshot !== undefined) await clients.anvil.revert({ id: snapshot });
  snapshot = await clients.anvil.snapshot();
});

describe.each(TOKENS)('$contract (Erc721Transfers)', (token) => {
  const abi: Abi = loadContractArtifact(token.contract).abi;
  const read = (functionName: string, args: readonly unknown[]) =>
    clients.client.readContract({ address: token.address(), abi, functionName, args });
  const send = async (from: (typeof accounts)[number], functionName: string, args: readonly unknown[]) => {
    const hash = await clients.wallet.writeContract({
      account: from,
      chain: clients.client.chain,
      address: token.address(),
      abi,
      functionName,
      args,
    });
    return clients.client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  };
  /** The custom error a call from `from` reverts with, as viem decodes it from the ABI; 'no revert' when it succeeds. */
  const revertOf = (from: Address, functionName: string, args: readonly unknown[]) =>
    clients.client.simulateContract({ account: from, address: token.address(), abi, functionName, args }).then(
      () => 'no revert',
      (err: Error) => /\bError: (\w+)\(/.exec(err.message)?.[1] ?? err.message,
    );

  it("an owner's transfer moves the token and both balances, emits Transfer and clears the approval", async () => {
    await send(holder, 'approve', [spender.address, token.tokenId]);
    const before = (await read('balanceOf', [holder.address])) as bigint;
    const receipt = await send(holder, 'transferFrom', [holder.address, receiver.address, token.tokenId]);

    expect(await read('ownerOf', [token.tokenId])).toBe(receiver.address);
    expect(await read('balanceOf', [holder.address])).toBe(before - 1n);
    expect(await read('balanceOf', [receiver.address])).toBe(1n);
    expect(await read('getApproved', [token.tokenId])).toBe(zeroAddress);
    const transfers = parseEventLogs({ abi, logs: receipt.logs, eventName: 'Transfer' });
    expect(transfers.map((log) => log.args)).toEqual([
      { from: holder.address, to: receiver.address, tokenId: token.tokenId },
    ]);
  });

  it("the approved address and an operator may move the token; anyone else is refused with the contract's error", async () => {
    const move = [holder.address, receiver.address, token.tokenId] as const;
    expect(await revertOf(spender.address, 'transferFrom', move)).toBe(token.notAuthorized);
    expect(await revertOf(stranger.address, 'approve', [stranger.address, token.tokenId])).toBe(token.notAuthorized);

    await send(holder, 'approve', [spender.address, token.tokenId]);
    expect(await read('getApproved', [token.tokenId])).toBe(spender.address);
    expect(await revertOf(spender.address, 'transferFrom', move)).toBe('no revert');

    await send(holder, 'setApprovalForAll', [operator.address, true]);
    expect(await read('isApprovedForAll', [holder.address, operator.address])).toBe(true);
    await send(operator, 'transferFrom', move);
    expect(await read('ownerOf', [token.tokenId])).toBe(receiver.address);
  });

  it('a transfer naming another owner or the zero address is refused', async () => {
    expect(await revertOf(holder.address, 'transferFrom', [stranger.address, receiver.address, token.tokenId])).toBe(
      'WrongOwner',
    );
    expect(await revertOf(holder.address, 'transferFrom', [holder.address, zeroAddress, token.tokenId])).toBe(
      'InvalidReceiver',
    );
  });

  it('safeTransferFrom hands the token to an account, and refuses a contract that is no ERC-721 receiver', async () => {
    expect(
      await revertOf(holder.address, 'safeTransferFrom', [holder.address, MULTICALL3_ADDRESS, token.tokenId]),
    ).toBe('InvalidReceiver');
    await send(holder, 'safeTransferFrom', [holder.address, receiver.address, token.tokenId, '0x1234']);
    expect(await read('ownerOf', [token.tokenId])).toBe(receiver.address);
  });

  it("a token that is not live is refused with the contract's own error", async () => {
    expect(await revertOf(holder.address, 'ownerOf', [token.missing])).toBe(token.notLive);
    expect(await revertOf(holder.address, 'getApproved', [token.missing])).toBe(token.notLive);
    expect(await revertOf(holder.address, 'approve', [spender.address, token.missing])).toBe(token.notLive);
  });
});
