import { type Address, keccak256, stringToHex } from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';

/**
 * The accounts the embedded chains' contracts are deployed by, each of its own so that its contracts' addresses
 * depend on nothing another seed step does: keys made from a hash of a fixed phrase (nobody holds them elsewhere).
 */
const DEPLOYER_PHRASES = {
  ens: 'chain-identity-api: local ENS deployer',
  baseNames: 'chain-identity-api: local Base names deployer',
  demoAssets: 'chain-identity-api: local demo assets deployer',
} as const;

export type DeployerName = keyof typeof DEPLOYER_PHRASES;

/**
 * The deployers' addresses as scripts/bundle-server.mjs computed them when it built the bundle (they depend on no
 * configuration; a public key costs ~50 ms of CPU per start); undefined unbundled, where they are derived on first use.
 */
declare const __BUILT_DEPLOYER_ADDRESSES__: Record<DeployerName, Address> | undefined;

const accounts = new Map<DeployerName, PrivateKeyAccount>();

/** The deployer's account, to sign with (derived on first use). */
export function deployerAccount(name: DeployerName): PrivateKeyAccount {
  let account = accounts.get(name);
  if (!account) {
    account = privateKeyToAccount(keccak256(stringToHex(DEPLOYER_PHRASES[name])));
    accounts.set(name, account);
  }
  return account;
}

/** The deployer's address, without deriving its account where the bundle carries it. */
export function deployerAddress(name: DeployerName): Address {
  if (typeof __BUILT_DEPLOYER_ADDRESSES__ !== 'undefined') return __BUILT_DEPLOYER_ADDRESSES__[name];
  return deployerAccount(name).address;
}

/** Every deployer's address, derived (scripts/bundle-server.mjs writes them into the bundle). */
export function deriveDeployerAddresses(): Record<DeployerName, Address> {
  const names = Object.keys(DEPLOYER_PHRASES) as DeployerName[];
  return Object.fromEntries(names.map((name) => [name, deployerAccount(name).address])) as Record<
    DeployerName,
    Address
  >;
}
