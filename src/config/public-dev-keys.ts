import { pbkdf2Sync } from 'node:crypto';
import { type Address, bytesToHex, getAddress, type Hex, keccak256, stringToBytes } from 'viem';
import { HDKey, privateKeyToAddress } from 'viem/accounts';

/** The public mnemonic anvil (and Hardhat) derive their default development accounts from. */
export const ANVIL_DEV_MNEMONIC = 'test test test test test test test test test test test junk';

/** Accounts of that mnemonic anyone may hold the key of: anvil funds the first 10, Hardhat the first 20. */
export const PUBLIC_DEV_ACCOUNT_COUNT = 20;

/**
 * Where the embedded default's x402 payments go: an address made from a hash, so nobody holds its key (test USDC
 * paid there stays there). A live configuration names its own X402_RECEIVER.
 */
export const DEMO_X402_RECEIVER: Address = getAddress(
  `0x${keccak256(stringToBytes('chain-identity-api: the demo x402 receiver, an address whose key nobody holds')).slice(-40)}`,
);

/**
 * The HD node m/44'/60'/0'/0 of the public mnemonic: each account is one child of it. BIP-39's seed is PBKDF2-HMAC-SHA512
 * (mnemonic, "mnemonic", 2048 rounds), stretched with node's native PBKDF2.
 */
export function publicDevAccountsNode(): HDKey {
  const seed = pbkdf2Sync(ANVIL_DEV_MNEMONIC.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512');
  return HDKey.fromMasterSeed(seed).derive("m/44'/60'/0'/0");
}

/**
 * The keys below as scripts/bundle-server.mjs derived them when it built the bundle (`npm start` runs it): the
 * derivation does not depend on configuration, so it is done once per build, not per start. Undefined where the code
 * runs unbundled (tests, tsc output): there they are derived on first use.
 */
declare const __BUILT_PUBLIC_DEV_KEYS__: readonly { address: Address; privateKey: Hex }[] | undefined;

let derived: readonly { address: Address; privateKey: Hex }[] | undefined;

/** Derives the keys from the public mnemonic (~0.1-0.3 s of CPU). */
export function derivePublicDevKeys(): readonly { address: Address; privateKey: Hex }[] {
  const node = publicDevAccountsNode();
  return Array.from({ length: PUBLIC_DEV_ACCOUNT_COUNT }, (_, index) => {
    const privateKey = bytesToHex(node.deriveChild(index).privateKey!);
    return { address: privateKeyToAddress(privateKey), privateKey };
  });
}

/**
 * The development accounts whose private keys are public (derived from the mnemonic, not written down), by index:
 * no offer may name one as its receiver, no signer may use one's key. Derived at build time in the bundle, else once
 * per process and only when needed.
 * @example publicDevKeys()[9].address // '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'
 */
export function publicDevKeys(): readonly { address: Address; privateKey: Hex }[] {
  derived ??= typeof __BUILT_PUBLIC_DEV_KEYS__ !== 'undefined' ? __BUILT_PUBLIC_DEV_KEYS__ : derivePublicDevKeys();
  return derived;
}

/** The index of the public development account `address` is, or undefined. */
export function publicDevAccountIndex(address: string): number | undefined {
  const index = publicDevKeys().findIndex((k) => k.address.toLowerCase() === address.toLowerCase());
  return index < 0 ? undefined : index;
}

/** The index of the public development account whose private key `key` is, or undefined. */
export function publicDevKeyIndex(key: string): number | undefined {
  const index = publicDevKeys().findIndex((k) => k.privateKey.toLowerCase() === key.toLowerCase());
  return index < 0 ? undefined : index;
}
