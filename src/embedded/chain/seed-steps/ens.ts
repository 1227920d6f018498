import {
  type Abi,
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  keccak256,
  labelhash,
  namehash,
  numberToHex,
  parseEther,
  zeroHash,
} from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { coinAddressBytes, coinTypeOf } from '../../../sources/ens/coin-addresses.js';
import { encodeContentHash } from '../../../sources/ens/content-hash.js';
import { MAINNET_ENS_CONTRACTS } from '../../../sources/ens/ens-contracts.js';
import { loadContractArtifact } from '../../../sources/rpc/contract-artifacts.js';
import { loadPublishedContract } from '../published-contracts.js';
import type { SeedContext, SeedStep } from '../seed-local-chain.js';
import { demoAssetAddresses } from './demo-assets.js';
import { deployerAccount, deployerAddress } from './deployer-accounts.js';

// deployerAccount('ens') (deployer-accounts.ts):
// ENS is deployed by an account of its own (not dev account 0), so its addresses depend on nothing another seed step
// does: the deployer's nonces 0–4 are the registry, resolver, reverse registrar, .eth registrar, Universal Resolver.
// The registry and the Universal Resolver are then moved to their mainnet addresses (see localEnsAddresses).

/** Names in the map seedLocalChain returns. */
export const ENS_DEPLOYMENTS = {
  registry: 'ENSRegistry',
  publicResolver: 'PublicResolver',
  reverseRegistrar: 'ReverseRegistrar',
  ethRegistrar: 'EthNameRegistrar',
  universalResolver: 'UniversalResolver',
} as const;

export type EnsContractAddresses = Record<keyof typeof ENS_DEPLOYMENTS, Address>;

/** The gateway list the Universal Resolver uses when called without one: viem's in-client batch gateway. */
const LOCAL_BATCH_GATEWAYS = ['x-batch-gateway:true'];
const YEAR_SECONDS = 365n * 24n * 3600n;
const MIN_TRANSFERABLE_SECONDS = 3600n;

/** Where the deployer's transaction with `nonce` created its contract. */
const deployedAt = (nonce: number) => getContractAddress({ from: deployerAddress('ens'), nonce: BigInt(nonce) });

/**
 * Where the ENS contracts of the local chain are (fixed). The registry and the Universal Resolver sit at their mainnet
 * addresses, where ENS clients look without being told (ethers v6's default registry and Universal Resolver, viem's
 * `mainnet.contracts.ensUniversalResolver`); the others where the ENS deployer's nonces put them.
 * @example localEnsAddresses().universalResolver // '0xeEeEEEeE14D718C2B47D9923Deab1335E144EeEe'
 */
export function localEnsAddresses(): EnsContractAddresses & { deployer: Address } {
  return {
    deployer: deployerAddress('ens'),
    registry: MAINNET_ENS_CONTRACTS.registry,
    publicResolver: deployedAt(1),
    reverseRegistrar: deployedAt(2),
    ethRegistrar: deployedAt(3),
    universalResolver: MAINNET_ENS_CONTRACTS.universalResolver,
  };
}

/**
 * Moves a contract deployed at `from` to `to`: its runtime code (immutables included) and the storage `slots` its
 * constructor wrote; `from` is left without code. anvil_setCode cannot run a constructor, so a contract that must sit
 * at a fixed address is deployed normally first.
 */
async function moveContract({ publicClient, testClient }: SeedContext, from: Address, to: Address, slots: Hex[]) {
  const code = await publicClient.getCode({ address: from });
  if (!code) throw new Error(`no contract at ${from} to move to ${to}`);
  await testClient.setCode({ address: to, bytecode: code });
  for (const slot of slots) {
    const value = await publicClient.getStorageAt({ address: from, slot });
    await testClient.setStorageAt({ address: to, index: slot, value: value ?? zeroHash });
  }
  await testClient.setCode({ address: from, bytecode: '0x' });
}

/** Solidity's slot of `mapping(key => …)` entry `key` for the mapping at slot `mappingSlot`. */
const mappingSlot = (key: Hex, slot: number) =>
  keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [key, BigInt(slot)]));

/** A 48×48 SVG circle: the on-chain `data:` avatar of alice.eth. */
const ALICE_AVATAR_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48"><circle cx="24" cy="24" r="22" fill="#5298ff"/></svg>';

/** One demo name: who holds it (dev account index) and the records its resolver answers. */
export interface DemoEnsName {
  name: string;
  /** Dev account holding the registrar token (registrant); a name registered for seconds keeps it with the deployer. */
  registrant: number;
  /** Dev account owning the name in the registry (controller); the registrant unless stated. */
  controller?: number;
  /** Dev account the name resolves to. */
  address: number;
  texts: Record<string, string>;
  /** Addresses on other chains (ENSIP-9/11) by coin name: as the chain writes it, or a dev account's index. */
  coins?: Record<string, string | number>;
  /** ENSIP-7 URI, e.g. ipfs://bafy… */
  contentHash?: string;
  /** Seconds from registration; a year unless stated. */
  duration?: bigint;
  subnames?: { label: string; address: number; texts?: Record<string, string> }[];
}

/**
 * The demo names of the embedded chain. Primary names: dev account 1 → alice.eth, 2 → bob.eth; dev account 4 claims
 * alice.eth as its primary name without owning it, so its reverse lookup fails the forward check.
 */
export const DEMO_ENS_NAMES: readonly DemoEnsName[] = [
  {
    name: 'alice.eth',
    registrant: 1,
    address: 1,
    texts: {
      avatar: `data:image/svg+xml;base64,${Buffer.from(ALICE_AVATAR_SVG).toString('base64')}`,
      'com.twitter': 'alice',
      'com.github': 'alice-codes',
      url: 'https://alice.example.org',
      description: 'Alice of the local chain',
      email: 'alice@example.org',
      'com.discord': 'alice.eth',
      'org.example.favourite-colour': 'blue',
    },
    coins: {
      btc: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      sol: '7RfHHntUqwPeKEQNkyZ9Piu4vgDtR3A4j3riQHrKfG43',
      base: 1,
    },
    contentHash: 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
    subnames: [{ label: 'pay', address: 1, texts: { description: 'Where Alice takes payments' } }],
  },
  {
    name: 'bob.eth',
    registrant: 2,
    address: 2,
    texts: {
      avatar: 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/bob.png',
      'com.twitter': 'bob',
      'com.github': 'bob-builds',
      'xyz.example.status': 'building',
    },
    coins: { btc: 'bc1q6zdp0th5pf0amg2yf2cls70mwfvkk6tchg8ulg', op: 2 },
  },
  {
    name: 'carol.eth',
    registrant: 3,
    controller: 4,
    address: 3,
    texts: { avatar: 'https://avatars.example.org/carol.png', url: 'https://carol.example.org' },
  },
  { name: 'expired.eth', registrant: 3, address: 3, texts: { description: 'Registered for one second' }, duration: 1n },
  {
    // ENSIP-12: an NFT avatar its address holds (Demo Collectible #1 is alice's), an Arweave header, a Swarm site.
    name: 'nft.eth',
    registrant: 6,
    address: 1,
    texts: {
      avatar: `eip155:1/erc721:${demoAssetAddresses().collectible}/1`,
      header: 'ar://ys7Y6FeI6_bDyKN6Gsx2x-HZ5ZtF3sqHSmy3E8rSe0c',
    },
    contentHash: 'bzz://d1de9994b4d039f6548d191eb26786769f580809256b4685ef316805265ea162',
  },
  {
    // An NFT avatar its address does not hold (Demo Collectible #2 is bob's): no avatar; an onion site.
    name: 'borrowed.eth',
    registrant: 6,
    address: 1,
    texts: { avatar: `eip155:1/erc721:${demoAssetAddresses().collectible}/2` },
    contentHash: 'onion3://p53lf57qovyuvwsc6xnrppyply3vtqm7l6pcobkmyqsiofyeznfu5uqd',
  },
];

/** Dev account → the primary name it sets with the reverse registrar (dev account 4 claims a name it does not own). */
export const DEMO_PRIMARY_NAMES: readonly { account: number; name: string }[] = [
  { account: 1, name: 'alice.eth' },
  { account: 2, name: 'bob.eth' },
  { account: 4, name: 'alice.eth' },
];

/**
 * Deploys ENS's own published contracts (ENSRegistry and ReverseRegistrar of @ensdomains/ens, PublicResolver of
 * @ensdomains/resolver) with our .eth registrar and Universal Resolver (contracts/), and registers the demo names
 * with their records and the demo primary names. Run before fee-market activity.
 * @example await seedLocalChain({ rpcUrl, steps: [deployMulticall3Step(), ensStep(), feeMarketActivityStep()] })
 */
export function ensStep(): SeedStep {
  return {
    name: 'ens',
    async run(context) {
      const addresses = await deployEns(context);
      await registerDemoNames(context, addresses);
      for (const [key, name] of Object.entries(ENS_DEPLOYMENTS)) {
        context.deployments.set(name, addresses[key as keyof typeof ENS_DEPLOYMENTS]);
      }
    },
  };
}

export type Write = { address: Address; abi: Abi; functionName: string; args: readonly unknown[] };

/** Sends as a deployer (the ENS deployer unless given) with explicit nonces and checks every receipt. */
export function deployerWriter(
  { publicClient, walletClient }: SeedContext,
  firstNonce: number,
  account: PrivateKeyAccount = deployerAccount('ens'),
) {
  let nonce = firstNonce;
  const sent: Hex[] = [];
  return {
    async deploy(abi: Abi, bytecode: Hex, args: readonly unknown[]) {
      sent.push(await walletClient.deployContract({ account, abi, bytecode, args, nonce: nonce++ }));
    },
    async write(w: Write) {
      sent.push(await walletClient.writeContract({ account, ...w, nonce: nonce++ } as never));
    },
    async settle() {
      for (const hash of sent.splice(0)) {
        const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
        if (receipt.status !== 'success') throw new Error(`ENS seed transaction ${hash} reverted`);
      }
    },
  };
}

async function deployEns(context: SeedContext): Promise<EnsContractAddresses> {
  const { publicClient, testClient } = context;
  await testClient.setBalance({ address: deployerAddress('ens'), value: parseEther('100') });
  const nonce = await publicClient.getTransactionCount({ address: deployerAddress('ens') });
  if (nonce !== 0) throw new Error(`ENS deployer already used (nonce ${nonce})`);
  const expected = localEnsAddresses();
  const registry = loadPublishedContract('ENSRegistry');
  const resolver = loadPublishedContract('PublicResolver');
  const reverse = loadPublishedContract('ReverseRegistrar');
  const registrar = loadContractArtifact('EthNameRegistrar');
  const universal = loadContractArtifact('UniversalResolver');

  const tx = deployerWriter(context, 0);
  // The registry's constructor makes its deployer the root's owner: records[0x0].owner, slot 0 of mapping slot 0.
  // It moves before the others deploy, since the reverse registrar's constructor reads it.
  await tx.deploy(registry.abi, registry.bytecode, []);
  await tx.settle();
  const rootOwnerSlot = mappingSlot(zeroHash, 0);
  const rootOwner = await context.publicClient.getStorageAt({ address: deployedAt(0), slot: rootOwnerSlot });
  if (rootOwner !== numberToHex(BigInt(deployerAddress('ens')), { size: 32 })) {
    throw new Error(`ENSRegistry keeps its root owner elsewhere than slot ${rootOwnerSlot}`);
  }
  await moveContract(context, deployedAt(0), expected.registry, [rootOwnerSlot]);

  await tx.deploy(resolver.abi, resolver.bytecode, [expected.registry]);
  await tx.deploy(reverse.abi, reverse.bytecode, [expected.registry, expected.publicResolver]);
  await tx.deploy(registrar.abi, registrar.bytecode, [expected.registry, namehash('eth')]);
  await tx.deploy(universal.abi, universal.bytecode, [expected.registry, LOCAL_BATCH_GATEWAYS]);
  await tx.settle();
  // The Universal Resolver's storage is its `string[] defaultGateways` (slot 0): the length, then one slot per short
  // string from keccak256(0) on; the registry is an immutable, in the code.
  if (LOCAL_BATCH_GATEWAYS.some((url) => url.length >= 32)) throw new Error('a long gateway URL takes more slots');
  const gatewaySlots = LOCAL_BATCH_GATEWAYS.map((_, i) =>
    numberToHex(BigInt(keccak256(zeroHash)) + BigInt(i), { size: 32 }),
  );
  await moveContract(context, deployedAt(4), expected.universalResolver, [zeroHash, ...gatewaySlots]);

  const setSubnodeOwner = (parent: Hex, label: string, owner: Address): Write => ({
    address: expected.registry,
    abi: registry.abi,
    functionName: 'setSubnodeOwner',
    args: [parent, labelhash(label), owner],
  });
  await tx.write(setSubnodeOwner(zeroHash, 'eth', expected.ethRegistrar));
  await tx.write(setSubnodeOwner(zeroHash, 'reverse', deployerAddress('ens')));
  await tx.write(setSubnodeOwner(namehash('reverse'), 'addr', expected.reverseRegistrar));
  await tx.write({
    address: expected.ethRegistrar,
    abi: registrar.abi,
    functionName: 'addController',
    args: [deployerAddress('ens')],
  });
  await tx.settle();
  return expected;
}

/** A demo name's addresses on other chains as `setAddr(node, coinType, bytes)` arguments. */
function coinRecords(coins: DemoEnsName['coins'], accounts: readonly { address: Address }[]): [bigint, Hex][] {
  return Object.entries(coins ?? {}).map(([coin, value]) => {
    const coinType = coinTypeOf(coin);
    if (coinType === undefined) throw new Error(`demo coin ${coin} is not a coin ENS knows`);
    const address = typeof value === 'number' ? accounts[value]!.address : value;
    return [BigInt(coinType), coinAddressBytes(coinType, address)];
  });
}

/** The resolver calls setting a name's address, text records, other chains' addresses and content hash, for one `multicall`. */
export function recordCalls(
  resolverAbi: Abi,
  node: Hex,
  address: Address,
  texts: Record<string, string>,
  contentHash?: string,
  coins: readonly [bigint, Hex][] = [],
): Hex[] {
  const calls = [encodeFunctionData({ abi: resolverAbi, functionName: 'setAddr', args: [node, address] })];
  for (const [coinType, bytes] of coins) {
    calls.push(encodeFunctionData({ abi: resolverAbi, functionName: 'setAddr', args: [node, coinType, bytes] }));
  }
  for (const [key, value] of Object.entries(texts)) {
    calls.push(encodeFunctionData({ abi: resolverAbi, functionName: 'setText', args: [node, key, value] }));
  }
  if (contentHash) {
    calls.push(
      encodeFunctionData({
        abi: resolverAbi,
        functionName: 'setContenthash',
        args: [node, encodeContentHash(contentHash)],
      }),
    );
  }
  return calls;
}

async function registerDemoNames(context: SeedContext, ens: EnsContractAddresses): Promise<void> {
  const { accounts, publicClient, testClient, walletClient } = context;
  const registry = loadPublishedContract('ENSRegistry');
  const resolver = loadPublishedContract('PublicResolver');
  const reverse = loadPublishedContract('ReverseRegistrar');
  const registrar = loadContractArtifact('EthNameRegistrar');
  const deployer = deployerAddress('ens');
  const tx = deployerWriter(context, await publicClient.getTransactionCount({ address: deployer }));
  const registryWrite = (functionName: string, args: readonly unknown[]): Write => ({
    address: ens.registry,
    abi: registry.abi,
    functionName,
    args,
  });

  // The deployer registers each name to itself, writes its records as controller, then hands over control
  // (registry owner) and the registrar token (registrant) to the demo accounts.
  for (const demo of DEMO_ENS_NAMES) {
    const label = demo.name.slice(0, -'.eth'.length);
    const node = namehash(demo.name);
    await tx.write({
      address: ens.ethRegistrar,
      abi: registrar.abi,
      functionName: 'register',
      args: [label, deployer, demo.duration ?? YEAR_SECONDS],
    });
    await tx.write(registryWrite('setResolver', [node, ens.publicResolver]));
    const calls = recordCalls(
      resolver.abi,
      node,
      accounts[demo.address]!.address,
      demo.texts,
      demo.contentHash,
      coinRecords(demo.coins, accounts),
    );
    await tx.write({ address: ens.publicResolver, abi: resolver.abi, functionName: 'multicall', args: [calls] });
    for (const sub of demo.subnames ?? []) {
      const subnode = namehash(`${sub.label}.${demo.name}`);
      await tx.write(registryWrite('setSubnodeRecord', [node, labelhash(sub.label), deployer, ens.publicResolver, 0n]));
      const subCalls = recordCalls(resolver.abi, subnode, accounts[sub.address]!.address, sub.texts ?? {});
      await tx.write({ address: ens.publicResolver, abi: resolver.abi, functionName: 'multicall', args: [subCalls] });
      await tx.write(registryWrite('setOwner', [subnode, accounts[demo.controller ?? demo.registrant]!.address]));
    }
    await tx.write(registryWrite('setOwner', [node, accounts[demo.controller ?? demo.registrant]!.address]));
    // A name registered for seconds may already have expired here; its token stays with the deployer.
    if (demo.duration !== undefined && demo.duration < MIN_TRANSFERABLE_SECONDS) continue;
    await tx.write({
      address: ens.ethRegistrar,
      abi: registrar.abi,
      functionName: 'transferFrom',
      args: [deployer, accounts[demo.registrant]!.address, BigInt(labelhash(label))],
    });
  }
  await tx.settle();

  // A primary name is set by the address itself (the reverse registrar claims the caller's reverse node).
  for (const { account, name } of DEMO_PRIMARY_NAMES) {
    const hash = await walletClient.writeContract({
      account: accounts[account]!,
      address: ens.reverseRegistrar,
      abi: reverse.abi,
      functionName: 'setName',
      args: [name],
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (receipt.status !== 'success') throw new Error(`setName(${name}) reverted`);
  }

  // Let the short registrations run out in chain time, so they read as expired from the next block on.
  const shortest = DEMO_ENS_NAMES.reduce(
    (min, d) => (d.duration !== undefined && d.duration < min ? d.duration : min),
    YEAR_SECONDS,
  );
  if (shortest < YEAR_SECONDS) {
    await testClient.increaseTime({ seconds: Number(shortest) + 1 });
    await testClient.mine({ blocks: 1 });
  }
}
