import { type Address, getContractAddress, keccak256, labelhash, namehash, parseEther, stringToHex, zeroHash } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { loadContractArtifact } from '../contract-artifacts.js';
import { loadPublishedContract } from '../published-contracts.js';
import type { SeedStep } from '../seed-local-chain.js';
import { deployerWriter, recordCalls } from './ens.js';

/**
 * Base names are deployed by an account of their own, so their addresses on the embedded Base chain depend on
 * nothing else: its nonces 0–2 are the registry, the resolver and the base.eth registrar.
 */
export const BASE_NAMES_DEPLOYER = privateKeyToAccount(keccak256(stringToHex('chain-identity-api: local Base names deployer')));

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
  const at = (nonce: number) => getContractAddress({ from: BASE_NAMES_DEPLOYER.address, nonce: BigInt(nonce) });
  return { registry: at(0), resolver: at(1), registrar: at(2) };
}

/** The demo Base name: dev account #5, with a description, a twitter handle and a content hash. */
export const DEMO_BASE_NAME = {
  name: 'demo.base.eth',
  account: 5,
  texts: { description: 'A Base name of the local Base chain', 'com.twitter': 'demo_on_base' } as Record<string, string>,
  contentHash: 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
} as const;

const YEAR_SECONDS = 365n * 24n * 3600n;

/**
 * Basenames' shape on the embedded Base chain, with ENS's published contracts: an ENSRegistry (as Basenames' Registry),
 * a PublicResolver (as its L2Resolver: addr, text, contenthash) and our .eth registrar for base.eth (as its
 * BaseRegistrar: ERC-721, tokenId = labelhash, nameExpires). base.eth belongs to the registrar; demo.base.eth is
 * registered to dev account #5 with {@link DEMO_BASE_NAME}'s records.
 * @example await seedLocalChain({ rpcUrl, chainId: 8453, steps: [deployMulticall3Step(), baseNamesStep()] })
 */
export function baseNamesStep(): SeedStep {
  return {
    name: 'base-names',
    async run(context) {
      const { accounts, publicClient, testClient, deployments } = context;
      const deployer = BASE_NAMES_DEPLOYER.address;
      await testClient.setBalance({ address: deployer, value: parseEther('100') });
      const nonce = await publicClient.getTransactionCount({ address: deployer });
      if (nonce !== 0) throw new Error(`Base names deployer already used (nonce ${nonce})`);
      const at = localBaseNamesAddresses();
      const registry = loadPublishedContract('ENSRegistry');
      const resolver = loadPublishedContract('PublicResolver');
      const registrar = loadContractArtifact('EthNameRegistrar');
      const owner = accounts[DEMO_BASE_NAME.account]!.address;
      const label = DEMO_BASE_NAME.name.split('.')[0]!;
      const node = namehash(DEMO_BASE_NAME.name);
      const registryWrite = (functionName: string, args: readonly unknown[]) => ({ address: at.registry, abi: registry.abi, functionName, args });

      // Every transaction leaves with an explicit nonce and is mined on arrival; receipts are checked once at the end.
      const tx = deployerWriter(context, 0, BASE_NAMES_DEPLOYER);
      await tx.deploy(registry.abi, registry.bytecode, []);
      await tx.deploy(resolver.abi, resolver.bytecode, [at.registry]);
      await tx.deploy(registrar.abi, registrar.bytecode, [at.registry, namehash('base.eth')]);
      await tx.write(registryWrite('setSubnodeOwner', [zeroHash, labelhash('eth'), deployer]));
      await tx.write(registryWrite('setSubnodeOwner', [namehash('eth'), labelhash('base'), at.registrar]));
      await tx.write({ address: at.registrar, abi: registrar.abi, functionName: 'addController', args: [deployer] });
      await tx.write({ address: at.registrar, abi: registrar.abi, functionName: 'register', args: [label, deployer, YEAR_SECONDS] });
      await tx.write(registryWrite('setResolver', [node, at.resolver]));
      const calls = recordCalls(resolver.abi, node, owner, DEMO_BASE_NAME.texts, DEMO_BASE_NAME.contentHash);
      await tx.write({ address: at.resolver, abi: resolver.abi, functionName: 'multicall', args: [calls] });
      await tx.write(registryWrite('setOwner', [node, owner]));
      await tx.write({ address: at.registrar, abi: registrar.abi, functionName: 'transferFrom', args: [deployer, owner, BigInt(labelhash(label))] });
      await tx.settle();

      for (const [key, name] of Object.entries(BASE_NAMES_DEPLOYMENTS)) deployments.set(name, at[key as keyof BaseNamesAddresses]);
    },
  };
}
