import { type Address, getContractAddress, labelhash, namehash, parseEther, zeroHash } from 'viem';
import { coinAddressBytes } from '../../../sources/ens/coin-addresses.js';
import { BASE_COIN_TYPE, reverseNameOf, reverseNamespaceLabel } from '../../../sources/ens/reverse-names.js';
import { loadContractArtifact } from '../../../sources/rpc/contract-artifacts.js';
import { loadPublishedContract } from '../published-contracts.js';
import type { SeedStep } from '../seed-local-chain.js';
import { deployerAccount, deployerAddress } from './deployer-accounts.js';
import { deployerWriter, recordCalls } from './ens.js';

/**
 * Base names are deployed by an account of their own, so their addresses on the embedded Base chain depend on
 * nothing else: its nonces 0–2 are the registry, the resolver and the base.eth registrar.
 */

/** Names in the map the embedded Base chain's seed returns. */
export const BASE_NAMES_DEPLOYMENTS = {
  registry: 'ENSRegistry',
  resolver: 'PublicResolver',
  registrar: 'BaseRegistrar',
} as const;

export type BaseNamesAddresses = Record<keyof typeof BASE_NAMES_DEPLOYMENTS, Address>;

/**
 * Where the Base names contracts of the embedded Base chain are (fixed by the deployer's nonces).
 * @example localBaseNamesAddresses().resolver // '0x…'
 */
export function localBaseNamesAddresses(): BaseNamesAddresses {
  const at = (nonce: number) => getContractAddress({ from: deployerAddress('baseNames'), nonce: BigInt(nonce) });
  return { registry: at(0), resolver: at(1), registrar: at(2) };
}

/** One demo Base name: the dev account holding it (registrant, controller, and the address it resolves to) and its records. */
export interface DemoBaseName {
  name: string;
  account: number;
  texts: Record<string, string>;
  /** ENSIP-7 URI, e.g. ipfs://bafy… */
  contentHash?: string;
}

/** The demo Base names: dev account #5's demo.base.eth (description, twitter, content hash) and Alice's (#1) Base name. */
export const DEMO_BASE_NAMES: readonly DemoBaseName[] = [
  {
    name: 'demo.base.eth',
    account: 5,
    texts: { description: 'A Base name of the local Base chain', 'com.twitter': 'demo_on_base' },
    contentHash: 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
  },
  { name: 'alice.base.eth', account: 1, texts: { description: 'Alice on Base' } },
];

/**
 * Dev account → its Base primary name: #5 → demo.base.eth; #1 → alice.base.eth (alice.eth, its Ethereum primary name,
 * comes first); #6 claims demo.base.eth, which resolves to #5, so its reverse lookup fails the forward check.
 */
export const DEMO_BASE_PRIMARY_NAMES: readonly { account: number; name: string }[] = [
  { account: 5, name: 'demo.base.eth' },
  { account: 1, name: 'alice.base.eth' },
  { account: 6, name: 'demo.base.eth' },
];

const YEAR_SECONDS = 365n * 24n * 3600n;

/**
 * Basenames' shape on the embedded Base chain, with ENS's published contracts: an ENSRegistry (as Basenames' Registry),
 * a PublicResolver (as its L2Resolver: addr, text, contenthash, name) and our .eth registrar for base.eth (as its
 * BaseRegistrar: ERC-721, tokenId = labelhash, nameExpires). base.eth belongs to the registrar; {@link DEMO_BASE_NAMES}
 * are registered with their records, and {@link DEMO_BASE_PRIMARY_NAMES} set in the Base reverse namespace.
 * @example await seedLocalChain({ rpcUrl, chainId: 8453, steps: [deployMulticall3Step(), baseNamesStep()] })
 */
export function baseNamesStep(): SeedStep {
  return {
    name: 'base-names',
    async run(context) {
      const { accounts, publicClient, testClient, deployments } = context;
      const deployer = deployerAddress('baseNames');
      await testClient.setBalance({ address: deployer, value: parseEther('100') });
      const nonce = await publicClient.getTransactionCount({ address: deployer });
      if (nonce !== 0) throw new Error(`Base names deployer already used (nonce ${nonce})`);
      const at = localBaseNamesAddresses();
      const registry = loadPublishedContract('ENSRegistry');
      const resolver = loadPublishedContract('PublicResolver');
      const registrar = loadContractArtifact('EthNameRegistrar');
      const registryWrite = (functionName: string, args: readonly unknown[]) => ({
        address: at.registry,
        abi: registry.abi,
        functionName,
        args,
      });
      const resolverWrite = (functionName: string, args: readonly unknown[]) => ({
        address: at.resolver,
        abi: resolver.abi,
        functionName,
        args,
      });

      // Every transaction leaves with an explicit nonce and is mined on arrival; receipts are checked once at the end.
      const tx = deployerWriter(context, 0, deployerAccount('baseNames'));
      await tx.deploy(registry.abi, registry.bytecode, []);
      await tx.deploy(resolver.abi, resolver.bytecode, [at.registry]);
      await tx.deploy(registrar.abi, registrar.bytecode, [at.registry, namehash('base.eth')]);
      await tx.write(registryWrite('setSubnodeOwner', [zeroHash, labelhash('eth'), deployer]));
      await tx.write(registryWrite('setSubnodeOwner', [namehash('eth'), labelhash('base'), at.registrar]));
      await tx.write({ address: at.registrar, abi: registrar.abi, functionName: 'addController', args: [deployer] });
      for (const demo of DEMO_BASE_NAMES) {
        const owner = accounts[demo.account]!.address;
        const label = demo.name.split('.')[0]!;
        const node = namehash(demo.name);
        await tx.write({
          address: at.registrar,
          abi: registrar.abi,
          functionName: 'register',
          args: [label, deployer, YEAR_SECONDS],
        });
        await tx.write(registryWrite('setResolver', [node, at.resolver]));
        await tx.write(
          // Basenames' registration sets the name's Base address (coin type 0x80002105) beside its ETH one: what an
          // ENSIP-19 forward check of a Base primary name reads.
          resolverWrite('multicall', [
            recordCalls(resolver.abi, node, owner, demo.texts, demo.contentHash, [
              [BASE_COIN_TYPE, coinAddressBytes(Number(BASE_COIN_TYPE), owner)],
            ]),
          ]),
        );
        await tx.write(registryWrite('setOwner', [node, owner]));
        await tx.write({
          address: at.registrar,
          abi: registrar.abi,
          functionName: 'transferFrom',
          args: [deployer, owner, BigInt(labelhash(label))],
        });
      }

      // Primary names, in the state Basenames' ReverseRegistrar leaves them: `<address>.80002105.reverse` owned by the
      // address, its resolver the L2 resolver, the name record set there. ENS's published ReverseRegistrar cannot
      // write them (it hard-codes addr.reverse), so the deployer holds the namespace, as the ReverseRegistrar does on
      // Base, and writes each record through ENS's registry and PublicResolver as ENS's ReverseRegistrar.setNameForAddr
      // does (claim the node, set the name, hand the node over). The service reads only this registry and resolver
      // state, so it meets what it meets on Base; a contract of our own would add code the service never calls.
      const namespace = reverseNamespaceLabel(BASE_COIN_TYPE);
      await tx.write(registryWrite('setSubnodeOwner', [zeroHash, labelhash('reverse'), deployer]));
      await tx.write(registryWrite('setSubnodeOwner', [namehash('reverse'), labelhash(namespace), deployer]));
      for (const { account, name } of DEMO_BASE_PRIMARY_NAMES) {
        const address = accounts[account]!.address;
        const reverseName = reverseNameOf(address, BASE_COIN_TYPE);
        const node = namehash(reverseName);
        await tx.write(
          registryWrite('setSubnodeRecord', [
            namehash(`${namespace}.reverse`),
            labelhash(reverseName.split('.')[0]!),
            deployer,
            at.resolver,
            0n,
          ]),
        );
        await tx.write(resolverWrite('setName', [node, name]));
        await tx.write(registryWrite('setOwner', [node, address]));
      }
      await tx.settle();

      for (const [key, name] of Object.entries(BASE_NAMES_DEPLOYMENTS))
        deployments.set(name, at[key as keyof BaseNamesAddresses]);
    },
  };
}
