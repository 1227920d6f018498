import { type Address, createPublicClient, createWalletClient, http, labelhash, namehash, zeroAddress } from 'viem';
import { loadContractArtifact } from '../../sources/rpc/contract-artifacts.js';
import { localViemChain } from '../../sources/rpc/viem-chains.js';
import { loadPublishedContract } from './published-contracts.js';
import { deployerAccount, deployerAddress } from './seed-steps/deployer-accounts.js';
import { localEnsAddresses } from './seed-steps/ens.js';

const YEAR_SECONDS = 365n * 24n * 3600n;

export class OffchainParentError extends Error {
  override name = 'OffchainParentError';
}

export interface ServeParentsOffchainParameters {
  /** The embedded chain, seeded with ENS (src/embedded/chain/seed-steps/ens.ts). */
  rpcUrl: string;
  /** ERC-3668 URL template of our gateway, e.g. `http://127.0.0.1:41234/ccip/{sender}/{data}.json`. */
  gatewayUrl: string;
  /** Addresses whose signatures the resolver accepts. */
  signers: readonly Address[];
  /**
   * Unregistered second-level .eth names to register and hand to the resolver, and reverse namespaces
   * (`<coin type>.reverse`, e.g. 80002105.reverse) to create under `reverse` (held by the local ENS deployer) for it.
   */
  parents: readonly string[];
}

/** A parent the resolver serves: a .eth label the registrar registers, or a reverse namespace the registry creates. */
type ServedParent = { kind: 'eth' | 'reverse'; label: string };

function servedParent(parent: string): ServedParent {
  const [label, tld, ...rest] = parent.split('.');
  if ((tld === 'eth' || tld === 'reverse') && rest.length === 0 && label) return { kind: tld, label };
  throw new OffchainParentError(
    `CCIP_PARENT_NAMES: ${parent} cannot be registered on the embedded chain: use a second-level .eth name`,
  );
}

/**
 * Deploys ENS's OffchainResolver (bytecode of @ensdomains/offchain-resolver-contracts) pointing at our gateway, and
 * registers each parent on the embedded chain's .eth registrar (held by the local ENS deployer) with that resolver, or
 * creates it under `reverse` for a reverse namespace: a CCIP-Read client then resolves every name under the parent
 * through the gateway (ENSIP-10 wildcard).
 * The resolver's URL is fixed at construction, so this runs once the server listens and its port is known.
 * @example await serveParentsOffchain({ rpcUrl, gatewayUrl: `${url}/ccip/{sender}/{data}.json`, signers: [signer], parents: ['offchain.eth'] })
 */
export async function serveParentsOffchain(p: ServeParentsOffchainParameters): Promise<Address> {
  const ens = localEnsAddresses();
  const chain = localViemChain({ rpcUrl: p.rpcUrl });
  const transport = http(p.rpcUrl, { retryCount: 0 });
  const client = createPublicClient({ chain, transport });
  const wallet = createWalletClient({ chain, transport });
  const registry = loadPublishedContract('ENSRegistry');
  const registrar = loadContractArtifact('EthNameRegistrar');
  const offchain = loadPublishedContract('OffchainResolver');

  const served = p.parents.map(servedParent);
  const owners = await Promise.all(
    p.parents.map((parent) =>
      client.readContract({
        address: ens.registry,
        abi: registry.abi,
        functionName: 'owner',
        args: [namehash(parent)],
      }),
    ),
  );
  owners.forEach((owner, i) => {
    if (owner !== zeroAddress)
      throw new OffchainParentError(`CCIP_PARENT_NAMES: ${p.parents[i]} is already registered on the embedded chain`);
  });

  const receipt = async (hash: `0x${string}`) => {
    const r = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (r.status !== 'success') throw new OffchainParentError(`transaction ${hash} reverted`);
    return r;
  };
  // Development account 0 deploys, signed by anvil itself (it holds the dev keys): no key is derived at start.
  const [deployer] = await wallet.getAddresses();
  if (deployer === undefined) throw new OffchainParentError('the embedded chain lists no development account');
  const deployed = await receipt(
    await wallet.deployContract({
      account: deployer,
      abi: offchain.abi,
      bytecode: offchain.bytecode,
      args: [p.gatewayUrl, p.signers],
    }),
  );
  const resolver = deployed.contractAddress!;
  let nonce = await client.getTransactionCount({ address: deployerAddress('ens'), blockTag: 'pending' });
  const sent: `0x${string}`[] = [];
  for (const [i, { kind, label }] of served.entries()) {
    const node = namehash(p.parents[i]!);
    sent.push(
      kind === 'eth'
        ? await wallet.writeContract({
            account: deployerAccount('ens'),
            address: ens.ethRegistrar,
            abi: registrar.abi,
            functionName: 'register',
            args: [label, deployerAddress('ens'), YEAR_SECONDS],
            nonce: nonce++,
          })
        : await wallet.writeContract({
            account: deployerAccount('ens'),
            address: ens.registry,
            abi: registry.abi,
            functionName: 'setSubnodeOwner',
            args: [namehash('reverse'), labelhash(label), deployerAddress('ens')],
            nonce: nonce++,
          }),
      await wallet.writeContract({
        account: deployerAccount('ens'),
        address: ens.registry,
        abi: registry.abi,
        functionName: 'setResolver',
        args: [node, resolver],
        nonce: nonce++,
      }),
    );
  }
  for (const hash of sent) await receipt(hash);
  return resolver;
}
