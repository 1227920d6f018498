import { getAddress, labelhash, namehash, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { loadPublishedContract } from '../../src/embedded/chain/published-contracts.js';
import { demoAssetAddresses } from '../../src/embedded/chain/seed-steps/demo-assets.js';
import { localEnsAddresses } from '../../src/embedded/chain/seed-steps/ens.js';
import { loadContractArtifact } from '../../src/sources/rpc/contract-artifacts.js';
import { chainCursorName } from '../../src/webhooks/detectors/chain-cursor.js';
import { localChainClients } from '../helpers/local-chain-clients.js';
import { bearer, signIn } from '../helpers/siwe-wallet.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import {
  type ReceivedDelivery,
  startWebhookReceiver,
  verifyDelivery,
  type WebhookReceiver,
} from '../helpers/webhook-receiver.js';

const accounts = getDevAccounts();
const [, alice, bob, , , dave, erin, frank, grace] = accounts;
const ens = localEnsAddresses();
const assets = demoAssetAddresses();
const DAY = 86_400;

let server: TestServer;
let receiver: WebhookReceiver;
let ensSecret: string;
let walletSecret: string;
let walletHookId: string;
/** Chain event → receiver, ms, on the embedded default (WEBHOOK_POLL_MS 1000). */
const latencies: { test: string; ms: number }[] = [];

const chain = () => localChainClients(server.localChain!.rpcUrl);

/** Sends a transaction, waits for it to be mined, then for `count` deliveries matching `where`; records the latency. */
async function onChain(
  send: () => Promise<`0x${string}`>,
  where: (d: ReceivedDelivery) => boolean,
  count = 1,
): Promise<ReceivedDelivery[]> {
  const sentAt = Date.now();
  const hash = await send();
  const receipt = await chain().client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  expect(receipt.status).toBe('success');
  const found = await receiver.waitFor(where, count);
  latencies.push({
    test: expect.getState().currentTestName ?? '',
    ms: Math.max(...found.map((d) => d.receivedAt)) - sentAt,
  });
  return found;
}

beforeAll(async () => {
  [server, receiver] = await Promise.all([startTestServer(), startWebhookReceiver()]);
  const ensOwner = await signIn(server);
  const walletOwner = await signIn(server);
  const ensHook = await server.post(
    '/api/webhooks',
    {
      url: receiver.url,
      events: ['ens.transfer', 'ens.record_changed', 'ens.expiring', 'ens.expired'],
      filters: { names: ['*.eth'] },
    },
    bearer(ensOwner.token),
  );
  ensSecret = ((await ensHook.json()) as { secret: string }).secret;
  const walletHook = await server.post(
    '/api/webhooks',
    {
      url: receiver.url,
      events: ['wallet.transfer', 'wallet.nft_transfer'],
      filters: { addresses: [alice!.address, bob!.address] },
    },
    bearer(walletOwner.token),
  );
  ({ secret: walletSecret, id: walletHookId } = (await walletHook.json()) as { secret: string; id: string });
  // The detector starts at the head it first sees with a subscriber: act only once it has.
  const genesis = await chain().client.getBlock({ blockNumber: 0n });
  const cursor = chainCursorName(1, genesis.hash);
  for (let waited = 0; (await server.store.getCursor(cursor)) === null; waited += 50) {
    if (waited > 10_000) throw new Error('the chain detector never started');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});

afterAll(async () => {
  await Promise.all([server?.close(), receiver?.close()]);
});

describe('webhook events from the embedded chain, each arriving once and signed', () => {
  it('a text record change arrives as ens.record_changed with the new value', async () => {
    const resolver = loadPublishedContract('PublicResolver');
    const [change] = await onChain(
      () =>
        chain().wallet.writeContract({
          account: alice!,
          address: ens.publicResolver,
          abi: resolver.abi,
          functionName: 'setText',
          args: [namehash('alice.eth'), 'url', 'https://alice.example.org/new'],
        }),
      (d) => d.json.type === 'ens.record_changed',
    );
    expect(change!.json.data).toMatchObject({
      name: 'alice.eth',
      record: 'text',
      key: 'url',
      value: 'https://alice.example.org/new',
    });
    verifyDelivery(change!, ensSecret);
  });

  it('a name transfer arrives as ens.transfer (and, the name being an ERC-721, as wallet.nft_transfer)', async () => {
    const registrar = loadContractArtifact('EthNameRegistrar');
    const found = await onChain(
      () =>
        chain().wallet.writeContract({
          account: alice!,
          address: ens.ethRegistrar,
          abi: registrar.abi,
          functionName: 'transferFrom',
          args: [alice!.address, dave!.address, BigInt(labelhash('alice'))],
        }),
      (d) =>
        d.json.type === 'ens.transfer' ||
        (d.json.type === 'wallet.nft_transfer' && d.json.data.contract === ens.ethRegistrar),
      2,
    );
    const transfer = found.find((d) => d.json.type === 'ens.transfer')!;
    expect(transfer.json.data).toMatchObject({
      name: 'alice.eth',
      kind: 'registrant',
      from: alice!.address,
      to: dave!.address,
    });
    verifyDelivery(transfer, ensSecret);
    verifyDelivery(found.find((d) => d.json.type === 'wallet.nft_transfer')!, walletSecret);
  });

  it('ETH sent from a watched address arrives as wallet.transfer', async () => {
    const [eth] = await onChain(
      () => chain().wallet.sendTransaction({ account: bob!, to: erin!.address, value: parseEther('1.25') }),
      (d) => d.json.type === 'wallet.transfer' && d.json.data.asset === 'ETH',
    );
    expect(eth!.json.data).toMatchObject({
      from: bob!.address,
      to: erin!.address,
      value: parseEther('1.25').toString(),
    });
    verifyDelivery(eth!, walletSecret);
  });

  it('ETH a contract forwards to a watched address arrives once as an internal wallet.transfer from the contract', async () => {
    const forwarder = loadContractArtifact('EthForwarder');
    const { client, wallet } = chain();
    const deployment = await wallet.deployContract({
      account: frank!,
      abi: forwarder.abi,
      bytecode: forwarder.bytecode,
    });
    const contract = (await client.waitForTransactionReceipt({ hash: deployment, pollingInterval: 20 }))
      .contractAddress!;
    let hash: `0x${string}` | undefined;
    const [internal] = await onChain(
      async () => {
        hash = await wallet.writeContract({
          account: frank!,
          address: contract,
          abi: forwarder.abi,
          functionName: 'forward',
          args: [bob!.address],
          value: parseEther('0.75'),
        });
        return hash;
      },
      (d) => d.json.type === 'wallet.transfer' && d.json.data.transactionHash === hash,
    );
    expect(internal!.json.data).toEqual({
      asset: 'ETH',
      from: getAddress(contract),
      to: bob!.address,
      value: parseEther('0.75').toString(),
      internal: true,
      traceAddress: [0],
      blockNumber: expect.any(Number),
      transactionHash: hash,
    });
    verifyDelivery(internal!, walletSecret);
    // Delivered means its block was recorded whole (events and cursor in one step): the outbox holds all it gave.
    const recorded = (await server.store.listDeliveries({ webhookId: walletHookId, limit: 100, offset: 0 })).filter(
      (d) => (JSON.parse(d.payload) as ReceivedDelivery['json']).data.transactionHash === hash,
    );
    expect(recorded).toHaveLength(1);
  });

  it('ETH a watched address sends through a contract to another arrives twice, distinct: its own transaction and the internal call', async () => {
    const forwarder = loadContractArtifact('EthForwarder');
    const { client, wallet } = chain();
    const deployment = await wallet.deployContract({
      account: alice!,
      abi: forwarder.abi,
      bytecode: forwarder.bytecode,
    });
    const contract = getAddress(
      (await client.waitForTransactionReceipt({ hash: deployment, pollingInterval: 20 })).contractAddress!,
    );
    let hash: `0x${string}` | undefined;
    const found = await onChain(
      async () => {
        hash = await wallet.writeContract({
          account: alice!,
          address: contract,
          abi: forwarder.abi,
          functionName: 'forward',
          args: [bob!.address],
          value: 3n,
        });
        return hash;
      },
      (d) => d.json.type === 'wallet.transfer' && d.json.data.transactionHash === hash,
      2,
    );
    const byKind = Object.fromEntries(found.map((d) => [String(d.json.data.internal), d.json.data]));
    expect(byKind.false).toMatchObject({ from: alice!.address, to: contract, value: '3', internal: false });
    expect(byKind.true).toMatchObject({ from: contract, to: bob!.address, value: '3', traceAddress: [0] });
    expect(new Set(found.map((d) => d.json.id)).size).toBe(2);
  });

  it('an ERC-20 transfer arrives as wallet.transfer with the token and amount', async () => {
    const token = loadContractArtifact('DemoToken');
    const [usdc] = await onChain(
      () =>
        chain().wallet.writeContract({
          account: alice!,
          address: assets.tokens.USDC!,
          abi: token.abi,
          functionName: 'transfer',
          args: [frank!.address, 12_500_000n],
        }),
      (d) => d.json.type === 'wallet.transfer' && d.json.data.asset === assets.tokens.USDC,
    );
    expect(usdc!.json.data).toMatchObject({ from: alice!.address, to: frank!.address, value: '12500000' });
    verifyDelivery(usdc!, walletSecret);
  });

  it('an NFT transfer arrives as wallet.nft_transfer', async () => {
    const collectible = loadContractArtifact('DemoCollectible');
    const [nft] = await onChain(
      () =>
        chain().wallet.writeContract({
          account: alice!,
          address: assets.collectible,
          abi: collectible.abi,
          functionName: 'transferFrom',
          args: [alice!.address, grace!.address, 1n],
        }),
      (d) => d.json.type === 'wallet.nft_transfer' && d.json.data.contract === assets.collectible,
    );
    expect(nft!.json.data).toMatchObject({
      standard: 'erc721',
      tokenId: '1',
      from: alice!.address,
      to: grace!.address,
    });
    verifyDelivery(nft!, walletSecret);
  });

  it('time moving 30 days before and then past the expiry gives ens.expiring, then ens.expired', async () => {
    const { client, anvil } = chain();
    const block = await client.getBlock();
    const registrar = loadContractArtifact('EthNameRegistrar');
    const expires = (await client.readContract({
      address: ens.ethRegistrar,
      abi: registrar.abi,
      functionName: 'nameExpires',
      args: [BigInt(labelhash('bob'))],
    })) as bigint;
    await anvil.setNextBlockTimestamp({ timestamp: expires - BigInt(10 * DAY) });
    await anvil.mine({ blocks: 1 });
    const [expiring] = await receiver.waitFor((d) => d.json.type === 'ens.expiring' && d.json.data.name === 'bob.eth');
    expect(expiring!.json.data).toMatchObject({
      daysLeft: 10,
      expiresAt: new Date(Number(expires) * 1000).toISOString(),
    });
    verifyDelivery(expiring!, ensSecret);
    await anvil.setNextBlockTimestamp({ timestamp: expires + 60n });
    await anvil.mine({ blocks: 1 });
    const [expired] = await receiver.waitFor((d) => d.json.type === 'ens.expired' && d.json.data.name === 'bob.eth');
    expect(Date.parse(expired!.json.timestamp)).toBe(Number(expires) * 1000);
    expect(block.timestamp).toBeLessThan(expires);
  });

  it('no event arrived twice', async () => {
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const ids = receiver.received.map((d) => `${d.json.id} ${d.headers['x-webhook-signature']?.slice(0, 8)}`);
    const eventIds = receiver.received.map((d) => d.json.id);
    expect(new Set(eventIds).size, ids.join('\n')).toBe(eventIds.length);
    const sorted = latencies.map((l) => l.ms).sort((a, b) => a - b);
    console.info(
      `webhook delivery latency, chain event → receiver (embedded default, WEBHOOK_POLL_MS 1000): ${sorted.join(', ')} ms; median ${sorted[Math.floor(sorted.length / 2)]} ms\n${latencies.map((l) => `  ${l.ms} ms: ${l.test.split(' > ').at(-1)}`).join('\n')}`,
    );
  });
});
