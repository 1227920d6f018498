import { LRUCache } from 'lru-cache';
import {
  type Address,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  decodeAbiParameters,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
  toHex,
  zeroAddress,
} from 'viem';
import { packetToBytes } from 'viem/ens';
import type { AskedAt } from '../rpc/asked-at.js';
import type { BlockReads } from '../rpc/block-reads.js';
import type { ChainRpcClient } from '../rpc/chain-clients.js';
import { coinAddressText } from './coin-addresses.js';
import { decodeContentHash } from './content-hash.js';
import { type MulticallResult, readAllInOneCall, revertOf } from './contract-reads.js';
import {
  type EnsContracts,
  ensRegistryAbi,
  ethRegistrarAbi,
  multicoinAddrAbi,
  resolverProfileAbi,
  universalResolverAbi,
} from './ens-contracts.js';
import { ethSecondLevelLabel, isNormalizedEnsName } from './ens-names.js';
import { labelhash, namehash } from './name-hashes.js';
import { holdsToken, type NftAvatarRead, type NftAvatarRef, nftAvatarAbi } from './nft-avatar.js';

/** Text records a profile reads, by their ENS keys (ENSIP-5 / ENSIP-18). */
export const PROFILE_TEXT_KEYS = [
  'avatar',
  'header',
  'com.twitter',
  'com.github',
  'url',
  'description',
  'email',
  'com.discord',
] as const;

/** Records a profile read asks beyond its own: more text keys (ENSIP-5), addresses of more coin types (ENSIP-9/11). */
export interface ProfileExtras {
  textKeys: readonly string[];
  coinTypes: readonly number[];
}

export const NO_EXTRAS: ProfileExtras = { textKeys: [], coinTypes: [] };

/**
 * The text keys a profile read asks: the profile's own, then the extra ones not among them, in the order asked.
 * @example profileTextKeys({ textKeys: ['url', 'org.example'], coinTypes: [] }) // [...PROFILE_TEXT_KEYS, 'org.example']
 */
export function profileTextKeys(extras: ProfileExtras): string[] {
  return [...new Set<string>([...PROFILE_TEXT_KEYS, ...extras.textKeys])];
}

/** The cache key of a read's extras: reads asking the same extras share plans and block reads. */
export function extrasKey(extras: ProfileExtras): string {
  return `${extras.textKeys.join('\u0000')}\u0001${extras.coinTypes.join(',')}`;
}

/**
 * Registrant and expiry from the .eth registrar; names outside .eth have neither and never expire here. A subname
 * (`pay.alice.eth`) is active while its .eth parent is, its registrant is its own registry owner, and it has no expiry.
 */
export interface EnsRegistration {
  /** False once a .eth name (or a subname's .eth parent) has expired, grace period included: the service then answers 404. */
  active: boolean;
  registrant: Address | null;
  /** Unix seconds. */
  expiresAt: number | null;
}

/** Everything a profile shows, read in one Universal Resolver call plus registry and registrar reads. */
export interface EnsProfileRecord extends EnsRegistration {
  name: string;
  address: Address | null;
  avatarRecord: string | null;
  /** ENSIP-7 URI (ipfs://…), null when unset or of a kind we do not render. */
  contentHash: string | null;
  /** Set text records by ENS key (PROFILE_TEXT_KEYS and the extra keys read), avatar and empty values left out. */
  texts: Record<string, string>;
  /** Addresses of the extra coin types read, by decimal coin type, as their chains write them; unset left out. */
  coinAddresses: Record<string, string>;
  /** What the read asked the resolver: a key or coin type asked and absent above is unset. */
  asked: { textKeys: readonly string[]; coinTypes: readonly number[] };
  resolver: Address | null;
  /** Registry owner of the name. */
  controller: Address | null;
}

/** Universal Resolver errors that mean "no answer" (viem's list), not a failure of the chain. */
const NO_ANSWER_ERRORS = new Set([
  'HttpError',
  'ResolverError',
  'ResolverNotContract',
  'ResolverNotFound',
  'ReverseAddressMismatch',
  'UnsupportedResolverProfile',
  'DNSDecodingFailed',
  'DNSEncodingFailed',
]);
const OFFCHAIN_LOOKUP_SELECTOR = '0x556f1830';

/** A contract that reverted is an answer (null); anything else (network, timeout) is the chain failing. */
function revertedAsNull(err: unknown): null {
  if (revertOf(err)) return null;
  throw err;
}

function isOffchainLookup(err: unknown): boolean {
  const revert = revertOf(err);
  return (
    revert instanceof ContractFunctionRevertedError &&
    (revert.signature === OFFCHAIN_LOOKUP_SELECTOR || revert.raw?.startsWith(OFFCHAIN_LOOKUP_SELECTOR) === true)
  );
}

function isNoAnswer(err: unknown): boolean {
  const revert = revertOf(err);
  if (revert instanceof ContractFunctionZeroDataError) return true;
  return revert instanceof ContractFunctionRevertedError && NO_ANSWER_ERRORS.has(revert.data?.errorName ?? '');
}

const nonZero = (address: Address | null | undefined): Address | null =>
  address && address !== zeroAddress ? address : null;

/**
 * ENS reads on one chain through viem: its ENS actions (`getEnsAddress`, `getEnsName`, `getEnsText`) against the
 * Universal Resolver for resolution, so CCIP-Read names resolve too, and the registry and .eth registrar for
 * controller, registrant and expiry. Calls made together leave in ONE Multicall3 `eth_call` (the client batches
 * them), and every read goes through the chain's source client (breaker, health; failures → 503).
 * @example
 * const reader = new EnsChainReader({ client, contracts: MAINNET_ENS_CONTRACTS, reads: new BlockReads({ client, rpc }) })
 * await reader.addresses(['alice.eth', 'bob.eth']) // ['0x…', null]
 */
/** What reading one name's profile sends, a pure function of the name (its calldata): made once per recent name. */
interface ProfilePlan {
  name: string;
  node: Hex;
  label: string | undefined;
  resolveArgs: readonly [Hex, Hex, string[]];
  textKeys: readonly string[];
  coinTypes: readonly number[];
}

export class EnsChainReader {
  // Encoding a profile read is 9 ABI encodings (each hashing its function signature) per name; the names repeat.
  private readonly profilePlans = new LRUCache<string, ProfilePlan>({ max: 10_000 });

  constructor(private readonly p: { client: ChainRpcClient; contracts: EnsContracts; reads: BlockReads }) {}

  /**
   * docs/api-contract.md#data-freshness: each read is exact for the head block, made once per block. `askedAt`, on
   * every read: when the request it is made for arrived (block-reads.ts); undefined for a read made for none.
   */
  private load<T>(key: string, fetcher: () => Promise<T>, askedAt: AskedAt | undefined): Promise<T> {
    return this.p.reads.read(key, fetcher, askedAt);
  }

  /** The address each name resolves to (ENSIP-9, coin type 60); null when unresolved, unregistered or expired. */
  addresses(names: readonly string[], askedAt?: AskedAt): Promise<(Address | null)[]> {
    return this.load(
      `ens:addr:${names.join(',')}`,
      () =>
        Promise.all(
          names.map(async (name) => {
            const [address, registration] = await Promise.all([
              this.p.client.getEnsAddress({ name, gatewayUrls: this.p.contracts.gateways }),
              this.readRegistration(name),
            ]);
            return registration.active ? address : null;
          }),
        ),
      askedAt,
    );
  }

  /** Each address's primary name (ENSIP-19), forward-checked by the Universal Resolver; null when none holds. */
  primaryNames(addresses: readonly Address[], askedAt?: AskedAt): Promise<(string | null)[]> {
    return this.load(
      `ens:name:${addresses.join(',')}`,
      async () => {
        const names = await Promise.all(
          addresses.map((address) => this.p.client.getEnsName({ address, gatewayUrls: this.p.contracts.gateways })),
        );
        // A primary name that is not in normalised form, or whose .eth registration ran out, is not shown.
        const usable = names.map((name) => (name !== null && isNormalizedEnsName(name) ? name : null));
        const registrations = await Promise.all(
          usable.map((name) => (name === null ? null : this.readRegistration(name))),
        );
        return usable.map((name, i) => (registrations[i]?.active ? name : null));
      },
      askedAt,
    );
  }

  /** One text record of each name; null when unset, unresolved or expired. */
  texts(names: readonly string[], key: string, askedAt?: AskedAt): Promise<(string | null)[]> {
    return this.load(
      `ens:text:${key}:${names.join(',')}`,
      () =>
        Promise.all(
          names.map(async (name) => {
            const [value, registration] = await Promise.all([
              this.p.client.getEnsText({ name, key, gatewayUrls: this.p.contracts.gateways }),
              this.readRegistration(name),
            ]);
            return registration.active ? value : null;
          }),
        ),
      askedAt,
    );
  }

  /**
   * Full profiles in ONE `eth_call` however many names and extra records: per name one Universal Resolver call whose
   * data is `multicall(addr, contenthash, text…, addr(coinType)…)`, plus registry owner and registrar reads. A name
   * whose resolver goes offchain is finished by a follow-up call that viem runs through CCIP-Read. Null: not
   * registered, or expired.
   */
  profiles(
    names: readonly string[],
    extras: ProfileExtras = NO_EXTRAS,
    askedAt?: AskedAt,
  ): Promise<(EnsProfileRecord | null)[]> {
    return this.load(
      `ens:profile:${extrasKey(extras)}:${names.join(',')}`,
      () => this.readProfiles(names, extras),
      askedAt,
    );
  }

  /**
   * NFT avatars (ENSIP-12) in ONE `eth_call`: per avatar the owner check (ERC-721 `ownerOf`, ERC-1155 `balanceOf`
   * of the name's address) and the token URI (`tokenURI`, `uri`). Only this chain's NFTs can be read: another
   * chain's are answered as not held.
   */
  nftAvatars(asks: readonly { ref: NftAvatarRef; owner: Address }[], askedAt?: AskedAt): Promise<NftAvatarRead[]> {
    const key = asks.map((a) => `${a.ref.contract}/${a.ref.tokenId}/${a.owner}`).join(',');
    return this.load(
      `ens:nft-avatar:${key}`,
      async () => {
        const chainId = this.p.client.chain?.id;
        const reads = asks.flatMap(({ ref, owner }) =>
          ref.standard === 'erc721'
            ? [
                { address: ref.contract, abi: nftAvatarAbi, functionName: 'ownerOf', args: [ref.tokenId] },
                { address: ref.contract, abi: nftAvatarAbi, functionName: 'tokenURI', args: [ref.tokenId] },
              ]
            : [
                { address: ref.contract, abi: nftAvatarAbi, functionName: 'balanceOf', args: [owner, ref.tokenId] },
                { address: ref.contract, abi: nftAvatarAbi, functionName: 'uri', args: [ref.tokenId] },
              ],
        );
        const results = await readAllInOneCall(this.p.client, reads);
        return asks.map(({ ref, owner }, i) => {
          const held = results[2 * i]!;
          const uri = results[2 * i + 1]!;
          if (ref.chainId !== chainId) return { owned: false, tokenUri: null };
          return {
            owned: held.status === 'success' && holdsToken(ref.standard, owner, held.result),
            tokenUri: uri.status === 'success' && typeof uri.result === 'string' ? uri.result : null,
          };
        });
      },
      askedAt,
    );
  }

  private async readRegistration(name: string): Promise<EnsRegistration> {
    const label = ethSecondLevelLabel(name);
    if (label === undefined) return { active: true, registrant: null, expiresAt: null };
    const { client, contracts } = this.p;
    const id = BigInt(labelhash(label));
    const [expires, registrant] = await Promise.all([
      client
        .readContract({
          address: contracts.ethRegistrar,
          abi: ethRegistrarAbi,
          functionName: 'nameExpires',
          args: [id],
        })
        .catch(revertedAsNull),
      client
        .readContract({ address: contracts.ethRegistrar, abi: ethRegistrarAbi, functionName: 'ownerOf', args: [id] })
        .catch(revertedAsNull),
    ]);
    // The registrar's ownerOf refuses an expired token: the chain's own clock decides.
    return { active: registrant !== null, registrant, expiresAt: expires ? Number(expires) : null };
  }

  private async readProfiles(names: readonly string[], extras: ProfileExtras): Promise<(EnsProfileRecord | null)[]> {
    const { client, contracts } = this.p;
    const textKeys = profileTextKeys(extras);
    const planKey = extrasKey(extras);
    const plans = names.map((name) => {
      let plan = this.profilePlans.get(`${planKey}:${name}`);
      if (!plan) {
        plan = profilePlan(name, contracts.gateways, textKeys, extras.coinTypes);
        this.profilePlans.set(`${planKey}:${name}`, plan);
      }
      return plan;
    });
    const reads = plans.flatMap((plan) => {
      const resolve = {
        address: contracts.universalResolver,
        abi: universalResolverAbi,
        functionName: 'resolveWithGateways',
        args: plan.resolveArgs,
      };
      const owner = { address: contracts.registry, abi: ensRegistryAbi, functionName: 'owner', args: [plan.node] };
      if (plan.label === undefined) return [resolve, owner];
      const id = BigInt(labelhash(plan.label));
      return [
        resolve,
        owner,
        { address: contracts.ethRegistrar, abi: ethRegistrarAbi, functionName: 'nameExpires', args: [id] },
        { address: contracts.ethRegistrar, abi: ethRegistrarAbi, functionName: 'ownerOf', args: [id] },
      ];
    });
    // One aggregate3 call carries every read (≈ 200 k gas per profile).
    const results = await readAllInOneCall(client, reads);

    let next = 0;
    return Promise.all(
      plans.map(async (plan) => {
        const resolved = results[next++]!;
        const owner = results[next++]!;
        const registration: EnsRegistration =
          plan.label === undefined
            ? { active: true, registrant: null, expiresAt: null }
            : registrationFrom(results[next++]!, results[next++]!);
        const controller = owner.status === 'success' ? nonZero(owner.result as Address) : null;
        const answer = await this.finishResolution(resolved, plan.resolveArgs);
        // A subname lives while its .eth parent does, but is held by its own owner and has no registrar expiry.
        if (!registration.active) return null;
        const records = decodeProfileAnswers(answer, plan);
        // Nothing owns the name on chain and its resolver knows nothing of it: a wildcard (an offchain parent's
        // unregistered label), not a name; /api/ens/resolve answers it 404 too.
        if (controller === null && !hasAnyRecord(records)) return null;
        const own = isSubnameOf(plan) ? { registrant: controller, expiresAt: null } : {};
        const asked = { textKeys: plan.textKeys, coinTypes: plan.coinTypes };
        return { name: plan.name, controller, ...registration, ...own, ...records, asked };
      }),
    );
  }

  /** The Universal Resolver's answer; an offchain resolver's lookup is run through viem (CCIP-Read). */
  private async finishResolution(
    resolved: MulticallResult,
    args: readonly [Hex, Hex, string[]],
  ): Promise<{ answers: readonly Hex[]; resolver: Address } | null> {
    let value: readonly [Hex, Address];
    if (resolved.status === 'success') value = resolved.result as readonly [Hex, Address];
    else if (isOffchainLookup(resolved.error)) {
      try {
        value = await this.p.client.readContract({
          address: this.p.contracts.universalResolver,
          abi: universalResolverAbi,
          functionName: 'resolveWithGateways',
          args,
        });
      } catch (err) {
        if (isNoAnswer(err)) return null;
        throw err;
      }
    } else return null;
    const [answers] = decodeAbiParameters([{ type: 'bytes[]' }], value[0]);
    return { answers, resolver: value[1] };
  }
}

/** Whether a name sits below its .eth second-level name (`pay.alice.eth`), rather than being it. */
function isSubnameOf(plan: ProfilePlan): boolean {
  return plan.label !== undefined && plan.name !== `${plan.label}.eth`;
}

/** Whether a resolver answered any record of the name. */
function hasAnyRecord(records: ReturnType<typeof decodeProfileAnswers>): boolean {
  return (
    records.address !== null ||
    records.avatarRecord !== null ||
    records.contentHash !== null ||
    Object.keys(records.texts).length > 0 ||
    Object.keys(records.coinAddresses).length > 0
  );
}

function registrationFrom(expires: MulticallResult, ownerOf: MulticallResult): EnsRegistration {
  const registrant = ownerOf.status === 'success' ? nonZero(ownerOf.result as Address) : null;
  const expiresAt =
    expires.status === 'success' && (expires.result as bigint) > 0n ? Number(expires.result as bigint) : null;
  return { active: registrant !== null, registrant, expiresAt };
}

function decodeOr<T>(data: Hex | undefined, decode: (d: Hex) => T): T | null {
  if (data === undefined || data === '0x') return null;
  try {
    return decode(data);
  } catch {
    return null;
  }
}

/**
 * The resolver's answers to addr, contenthash, the texts and the coin types, in that order (empty = failed or unset).
 */
function decodeProfileAnswers(
  answer: { answers: readonly Hex[]; resolver: Address } | null,
  plan: Pick<ProfilePlan, 'textKeys' | 'coinTypes'>,
) {
  if (answer === null)
    return { address: null, avatarRecord: null, contentHash: null, texts: {}, coinAddresses: {}, resolver: null };
  const [addr, contenthash, ...rest] = answer.answers;
  const texts = rest.slice(0, plan.textKeys.length);
  const coins = rest.slice(plan.textKeys.length);
  const address = nonZero(
    decodeOr(addr, (d) => decodeFunctionResult({ abi: resolverProfileAbi, functionName: 'addr', data: d })),
  );
  const hash = decodeOr(contenthash, (d) =>
    decodeFunctionResult({ abi: resolverProfileAbi, functionName: 'contenthash', data: d }),
  );
  const values: Record<string, string> = {};
  plan.textKeys.forEach((key, i) => {
    const value = decodeOr(texts[i], (d) =>
      decodeFunctionResult({ abi: resolverProfileAbi, functionName: 'text', data: d }),
    );
    if (value) values[key] = value;
  });
  const coinAddresses: Record<string, string> = {};
  plan.coinTypes.forEach((coinType, i) => {
    const bytes = decodeOr(coins[i], (d) =>
      decodeFunctionResult({ abi: multicoinAddrAbi, functionName: 'addr', data: d }),
    );
    const text = bytes === null ? null : coinAddressText(coinType, bytes);
    if (text !== null) coinAddresses[String(coinType)] = text;
  });
  const { avatar, ...records } = values;
  return {
    address,
    avatarRecord: avatar ?? null,
    contentHash: hash ? decodeContentHash(hash) : null,
    texts: records,
    coinAddresses,
    resolver: nonZero(answer.resolver),
  };
}

function profilePlan(
  name: string,
  gateways: string[],
  textKeys: readonly string[],
  coinTypes: readonly number[],
): ProfilePlan {
  const node = namehash(name);
  const calls: Hex[] = [
    encodeFunctionData({ abi: resolverProfileAbi, functionName: 'addr', args: [node] }),
    encodeFunctionData({ abi: resolverProfileAbi, functionName: 'contenthash', args: [node] }),
    ...textKeys.map((key) => encodeFunctionData({ abi: resolverProfileAbi, functionName: 'text', args: [node, key] })),
    ...coinTypes.map((coinType) =>
      encodeFunctionData({ abi: multicoinAddrAbi, functionName: 'addr', args: [node, BigInt(coinType)] }),
    ),
  ];
  const resolveArgs = [
    toHex(packetToBytes(name)),
    encodeFunctionData({ abi: resolverProfileAbi, functionName: 'multicall', args: [calls] }),
    gateways,
  ] as const;
  return { name, node, label: ethSecondLevelLabel(name), resolveArgs, textKeys, coinTypes };
}
