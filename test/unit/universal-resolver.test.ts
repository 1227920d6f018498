import { JsonRpcProvider } from 'ethers';
import {
  type Address,
  type Chain,
  createPublicClient,
  decodeAbiParameters,
  decodeFunctionResult,
  encodeFunctionData,
  http,
  labelhash,
  namehash,
  type PublicClient,
  parseAbi,
  type Transport,
  toHex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { mainnet } from 'viem/chains';
import { packetToBytes } from 'viem/ens';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { type LocalChain, startLocalChain } from '../../src/embedded/chain/local-chain.js';
import { loadPublishedContract } from '../../src/embedded/chain/published-contracts.js';
import { seedLocalChain } from '../../src/embedded/chain/seed-local-chain.js';
import { ensStep, localEnsAddresses } from '../../src/embedded/chain/seed-steps/ens.js';
import { deployMulticall3Step } from '../../src/embedded/chain/seed-steps/multicall3.js';
import { loadContractArtifact } from '../../src/sources/rpc/contract-artifacts.js';
import { localChainClients } from '../helpers/local-chain-clients.js';
import { startTestOffchainGateway, type TestOffchainGateway } from '../helpers/offchain-gateway.js';

const ens = localEnsAddresses();
const accounts = getDevAccounts();
const universalResolver = loadContractArtifact('UniversalResolver');
const recordsAbi = parseAbi([
  'function addr(bytes32 node) view returns (address)',
  'function text(bytes32 node, string key) view returns (string)',
  'function multicall(bytes[] data) returns (bytes[] results)',
]);
const OFFCHAIN_ADDRESS: Address = '0x000000000000000000000000000000000000dEaD';

let chain: LocalChain;
let client: PublicClient<Transport, Chain>;
let gateway: TestOffchainGateway;

const dns = (name: string) => toHex(packetToBytes(name));

/** resolveWithGateways(name, multicall(calls)) through viem: the Universal Resolver's answer, decoded per call. */
async function resolveMany(name: string, calls: `0x${string}`[]): Promise<readonly `0x${string}`[]> {
  const [answer] = (await client.readContract({
    address: ens.universalResolver,
    abi: universalResolver.abi,
    functionName: 'resolveWithGateways',
    args: [
      dns(name),
      encodeFunctionData({ abi: recordsAbi, functionName: 'multicall', args: [calls] }),
      ['x-batch-gateway:true'],
    ],
  })) as [`0x${string}`, Address];
  return decodeAbiParameters([{ type: 'bytes[]' }], answer)[0];
}

beforeAll(async () => {
  chain = await startLocalChain();
  await seedLocalChain({ rpcUrl: chain.rpcUrl, steps: [deployMulticall3Step(), ensStep()] });
  const clients = localChainClients(
    { rpcUrl: chain.rpcUrl, contracts: { ensUniversalResolver: ens.universalResolver } },
    accounts[0]!,
  );
  client = clients.client;

  // offchain.eth answers through @ensdomains' OffchainResolver and a CCIP-Read gateway (ERC-3668).
  const signerKey = generatePrivateKey();
  gateway = await startTestOffchainGateway({
    signerKey,
    address: OFFCHAIN_ADDRESS,
    texts: { 'com.twitter': 'offchainer' },
  });
  const { wallet, anvil } = clients;
  const offchain = loadPublishedContract('OffchainResolver');
  const hash = await wallet.deployContract({
    abi: offchain.abi,
    bytecode: offchain.bytecode,
    args: [gateway.url, [privateKeyToAccount(signerKey).address]],
  });
  const { contractAddress } = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  await anvil.impersonateAccount({ address: ens.deployer });
  const registrar = loadContractArtifact('EthNameRegistrar');
  const registry = loadPublishedContract('ENSRegistry');
  for (const request of [
    {
      address: ens.ethRegistrar,
      abi: registrar.abi,
      functionName: 'register',
      args: ['offchain', ens.deployer, 86_400n],
    },
    {
      address: ens.registry,
      abi: registry.abi,
      functionName: 'setResolver',
      args: [namehash('offchain.eth'), contractAddress],
    },
  ]) {
    const tx = await wallet.writeContract({ ...request, account: ens.deployer } as never);
    await client.waitForTransactionReceipt({ hash: tx, pollingInterval: 50 });
  }
});

afterAll(async () => {
  await gateway?.close();
  await chain?.stop();
});

describe('UniversalResolver (contracts/) under viem 2.57 ENS actions, over ENS’s published contracts', () => {
  it('getEnsAddress resolves a seeded name and its subname, and null for an unregistered name', async () => {
    expect(await client.getEnsAddress({ name: 'alice.eth' })).toBe(accounts[1]!.address);
    expect(await client.getEnsAddress({ name: 'pay.alice.eth' })).toBe(accounts[1]!.address);
    expect(await client.getEnsAddress({ name: 'nobody.eth' })).toBeNull();
    // A resolver on a parent answers a child only through ENSIP-10; PublicResolver is not a wildcard resolver.
    expect(await client.getEnsAddress({ name: 'nothing.alice.eth' })).toBeNull();
  });

  it('getEnsText reads text records; a record never set is null', async () => {
    expect(await client.getEnsText({ name: 'alice.eth', key: 'com.twitter' })).toBe('alice');
    expect(await client.getEnsText({ name: 'alice.eth', key: 'com.discord' })).toBe('alice.eth');
    expect(await client.getEnsText({ name: 'bob.eth', key: 'email' })).toBeNull();
  });

  it('getEnsAvatar reads the data: avatar of alice.eth', async () => {
    expect(await client.getEnsAvatar({ name: 'alice.eth' })).toMatch(/^data:image\/svg\+xml;base64,/);
  });

  it('getEnsResolver finds the PublicResolver, also for a name that has none of its own', async () => {
    expect((await client.getEnsResolver({ name: 'alice.eth' })).toLowerCase()).toBe(ens.publicResolver.toLowerCase());
    expect((await client.getEnsResolver({ name: 'nothing.alice.eth' })).toLowerCase()).toBe(
      ens.publicResolver.toLowerCase(),
    );
  });

  it('getEnsName returns a primary name only when it resolves back to the address (forward check)', async () => {
    expect(await client.getEnsName({ address: accounts[1]!.address })).toBe('alice.eth');
    expect(await client.getEnsName({ address: accounts[2]!.address })).toBe('bob.eth');
    // Dev account 4 set alice.eth as its primary name, but alice.eth resolves to dev account 1.
    expect(await client.getEnsName({ address: accounts[4]!.address })).toBeNull();
    await expect(client.getEnsName({ address: accounts[4]!.address, strict: true })).rejects.toThrow(
      /ReverseAddressMismatch/,
    );
    // No reverse record at all.
    expect(await client.getEnsName({ address: accounts[3]!.address })).toBeNull();
  });

  it('multicall(bytes[]) answers every call in one resolution; a call the resolver fails is empty', async () => {
    const node = namehash('alice.eth');
    const answers = await resolveMany('alice.eth', [
      encodeFunctionData({ abi: recordsAbi, functionName: 'addr', args: [node] }),
      encodeFunctionData({ abi: recordsAbi, functionName: 'text', args: [node, 'url'] }),
      '0xdeadbeef',
    ]);
    expect(decodeFunctionResult({ abi: recordsAbi, functionName: 'addr', data: answers[0]! })).toBe(
      accounts[1]!.address,
    );
    expect(decodeFunctionResult({ abi: recordsAbi, functionName: 'text', data: answers[1]! })).toBe(
      'https://alice.example.org',
    );
    expect(answers[2]).toBe('0x');
  });

  it('a resolver reverting with OffchainLookup is re-wrapped with the Universal Resolver as sender (CCIP-Read)', async () => {
    gateway.requests = 0;
    expect(await client.getEnsAddress({ name: 'offchain.eth' })).toBe(OFFCHAIN_ADDRESS);
    expect(gateway.requests).toBe(1);
    // ENSIP-10 wildcard: the parent's extended resolver answers for any child.
    expect(await client.getEnsAddress({ name: 'deep.sub.offchain.eth' })).toBe(OFFCHAIN_ADDRESS);
    expect(await client.getEnsText({ name: 'offchain.eth', key: 'com.twitter' })).toBe('offchainer');
  });

  it('an offchain multicall asks the gateway for every call in one round', async () => {
    gateway.requests = 0;
    const node = namehash('offchain.eth');
    const answers = await resolveMany('offchain.eth', [
      encodeFunctionData({ abi: recordsAbi, functionName: 'addr', args: [node] }),
      encodeFunctionData({ abi: recordsAbi, functionName: 'text', args: [node, 'com.twitter'] }),
    ]);
    expect(decodeFunctionResult({ abi: recordsAbi, functionName: 'addr', data: answers[0]! })).toBe(OFFCHAIN_ADDRESS);
    expect(decodeFunctionResult({ abi: recordsAbi, functionName: 'text', data: answers[1]! })).toBe('offchainer');
    expect(gateway.requests).toBe(2);
  });

  it('a gateway that fails makes the lookup null, not an exception (HttpError)', async () => {
    gateway.failWith = 503;
    try {
      expect(await client.getEnsAddress({ name: 'offchain.eth' })).toBeNull();
      await expect(client.getEnsAddress({ name: 'offchain.eth', strict: true })).rejects.toThrow(/HttpError/);
    } finally {
      gateway.failWith = undefined;
    }
  });

  it('the .eth registrar keeps registrant (token owner), expiry and controller (registry owner) apart', async () => {
    const registrar = loadContractArtifact('EthNameRegistrar');
    const read = (functionName: string, label: string) =>
      client.readContract({
        address: ens.ethRegistrar,
        abi: registrar.abi,
        functionName,
        args: [BigInt(labelhash(label))],
      });
    expect(await read('ownerOf', 'carol')).toBe(accounts[3]!.address);
    const registryAbi = parseAbi(['function owner(bytes32) view returns (address)']);
    expect(
      await client.readContract({
        address: ens.registry,
        abi: registryAbi,
        functionName: 'owner',
        args: [namehash('carol.eth')],
      }),
    ).toBe(accounts[4]!.address);
    expect(Number(await read('nameExpires', 'carol'))).toBeGreaterThan(Date.now() / 1000 + 300 * 86_400);
    // expired.eth was registered for one second: ownerOf refuses it, as ENS's BaseRegistrar does.
    await expect(read('ownerOf', 'expired')).rejects.toThrow(/NameExpired/);
  });
});

describe('ENS at its mainnet addresses: ethers v6 and viem with no ENS settings resolve on the local chain (chain id 1)', () => {
  let provider: JsonRpcProvider;
  beforeAll(() => {
    provider = new JsonRpcProvider(chain.rpcUrl);
  });
  afterAll(() => provider?.destroy());

  it('the registry and the Universal Resolver are where ethers 6 and viem look by default', async () => {
    const ensPlugin = (await provider.getNetwork()).getPlugin<import('ethers').EnsPlugin>(
      'org.ethers.plugins.network.Ens',
    );
    expect(ensPlugin?.address).toBe(ens.registry);
    expect(ensPlugin?.universalResolver?.toLowerCase()).toBe(ens.universalResolver.toLowerCase());
    expect(mainnet.contracts.ensUniversalResolver.address.toLowerCase()).toBe(ens.universalResolver.toLowerCase());
    for (const address of [ens.registry, ens.universalResolver]) {
      expect(await client.getCode({ address }), address).toMatch(/^0x[0-9a-f]{100,}$/);
    }
  });

  it('ethers resolves names, subnames and text records through requireResolver, and offchain ones by CCIP-Read', async () => {
    expect(await provider.resolveName('alice.eth')).toBe(accounts[1]!.address);
    expect(await provider.resolveName('pay.alice.eth')).toBe(accounts[1]!.address);
    expect(await (await provider.getResolver('alice.eth'))?.getText('com.twitter')).toBe('alice');
    expect(await provider.resolveName('deep.sub.offchain.eth')).toBe(OFFCHAIN_ADDRESS);
    // ENS's Universal Resolver reverts for a name without a resolver, and ethers 6.17 passes that on.
    await expect(provider.resolveName('nobody.eth')).rejects.toThrow(/ResolverNotFound/);
  });

  it('ethers lookupAddress calls reverse(): the primary name, null without one, a revert when it does not resolve back', async () => {
    expect(await provider.lookupAddress(accounts[1]!.address)).toBe('alice.eth');
    expect(await provider.lookupAddress(accounts[2]!.address)).toBe('bob.eth');
    expect(await provider.lookupAddress(accounts[3]!.address)).toBeNull();
    await expect(provider.lookupAddress(accounts[4]!.address)).rejects.toThrow(/ReverseAddressMismatch/);
  });

  it('viem with the stock mainnet chain resolves the same names', async () => {
    const stock = createPublicClient({ chain: mainnet, transport: http(chain.rpcUrl, { retryCount: 0 }) });
    expect(await stock.getEnsAddress({ name: 'alice.eth' })).toBe(accounts[1]!.address);
    expect(await stock.getEnsName({ address: accounts[2]!.address })).toBe('bob.eth');
    expect(await stock.getEnsText({ name: 'offchain.eth', key: 'com.twitter' })).toBe('offchainer');
  });
});
