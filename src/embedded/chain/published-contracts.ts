import { createRequire } from 'node:module';
import { type Abi, type Hex, isHex } from 'viem';

/** A contract as its publisher built it: ABI and creation code from the package's own build output. */
export type PublishedContract = {
  abi: Abi;
  /** Creation code; deploy it with `walletClient.deployContract`. */
  bytecode: Hex;
};

/** ENS's own published builds (truffle / hardhat artifacts shipped in the npm packages), by the name we use. */
const PUBLISHED_ARTIFACTS = {
  ENSRegistry: '@ensdomains/ens/build/contracts/ENSRegistry.json',
  ReverseRegistrar: '@ensdomains/ens/build/contracts/ReverseRegistrar.json',
  PublicResolver: '@ensdomains/resolver/build/contracts/PublicResolver.json',
  OffchainResolver:
    '@ensdomains/offchain-resolver-contracts/artifacts/contracts/OffchainResolver.sol/OffchainResolver.json',
} as const;

export type PublishedContractName = keyof typeof PUBLISHED_ARTIFACTS;

export class PublishedContractError extends Error {
  override name = 'PublishedContractError';
}

const loaded = new Map<PublishedContractName, PublishedContract>();

/**
 * Reads a published ENS contract (ABI and creation code) from its installed npm package.
 * @example
 * const { abi, bytecode } = loadPublishedContract('ENSRegistry')
 * const hash = await walletClient.deployContract({ abi, bytecode })
 */
export function loadPublishedContract(name: PublishedContractName): PublishedContract {
  const cached = loaded.get(name);
  if (cached) return cached;
  const path = PUBLISHED_ARTIFACTS[name];
  let artifact: { abi?: unknown; bytecode?: unknown };
  try {
    artifact = createRequire(import.meta.url)(path) as typeof artifact;
  } catch (err) {
    throw new PublishedContractError(`${name}: ${path} is not installed (${(err as Error).message})`);
  }
  const { abi, bytecode } = artifact;
  if (!Array.isArray(abi) || typeof bytecode !== 'string' || !isHex(bytecode) || bytecode.length <= 2) {
    throw new PublishedContractError(`${name}: ${path} has no ABI or creation code`);
  }
  const contract = { abi: abi as Abi, bytecode: bytecode as Hex };
  loaded.set(name, contract);
  return contract;
}
