import { type Address, type Hex, isAddressEqual, zeroAddress } from 'viem';
import type { AskedAt } from '../rpc/asked-at.js';
import type { BlockReads } from '../rpc/block-reads.js';
import type { ChainRpcClient } from '../rpc/chain-clients.js';
import { coinAddressText } from './coin-addresses.js';
import { decodeContentHash } from './content-hash.js';
import { type MulticallResult, readAllInOneCall } from './contract-reads.js';
import {
  type EnsProfileRecord,
  type EnsRegistration,
  extrasKey,
  NO_EXTRAS,
  type ProfileExtras,
  profileTextKeys,
} from './ens-chain-reader.js';
import {
  ensRegistryAbi,
  ethRegistrarAbi,
  multicoinAddrAbi,
  nameResolverAbi,
  resolverProfileAbi,
} from './ens-contracts.js';
import { isNormalizedEnsName } from './ens-names.js';
import { labelhash, namehash } from './name-hashes.js';
import { BASE_COIN_TYPE, reverseNameOf } from './reverse-names.js';

/** The parent whose subnames live on Base (Basenames); `base.eth` itself stays on Ethereum. */
export const BASE_NAMES_PARENT = 'base.eth';

/**
 * Whether a normalised name is a Base name (under base.eth), read on Base directly when a Base RPC is configured.
 * @example isBaseName('jesse.base.eth') // true
 */
export function isBaseName(name: string): boolean {
  return name.endsWith(`.${BASE_NAMES_PARENT}`);
}

/** Where Base names live on Base: Basenames' registry, its L2 resolver and its BaseRegistrar (ERC-721). */
export interface BaseNamesContracts {
  /** ENS-style registry: resolver(bytes32), owner(bytes32). */
  registry: Address;
  /** The resolver most names use, asked in the same call as the registry; a name using another one costs a second call. */
  resolver: Address;
  /** ERC-721, tokenId = labelhash of the label under base.eth: ownerOf (reverts once expired), nameExpires. */
  registrar: Address | undefined;
  /**
   * Basenames' ReverseRegistrar: it owns the Base reverse namespace (80002105.reverse) in the registry and, on a
   * holder's `setName`, points the holder's reverse node at its default resolver and sets the name there. Reads never
   * call it (primary names are read from the namespace's records); absent where the namespace has no registrar
   * contract (the embedded Base chain's seed holds it itself).
   */
  reverseRegistrar?: Address;
}

/** Basenames on Base mainnet (github.com/base-org/basenames, README "Contract addresses"). */
export const BASENAMES_CONTRACTS: BaseNamesContracts = {
  registry: '0xB94704422c2a1E396835A571837Aa5AE53285a95',
  resolver: '0xC6d566A56A1aFf6508b41f6c90ff131615583BCD',
  registrar: '0x03c4738Ee98aE44591e1A4A4F3CaB6641d95DD9a',
  reverseRegistrar: '0x79EA96012eEa67A83431F1701B3dFf7e37F9E282',
};

/** What one read asks each name's resolver. */
interface Wanted {
  addr: boolean;
  contenthash: boolean;
  textKeys: readonly string[];
  coinTypes?: readonly number[];
}

type Read = { address: Address; abi: unknown; functionName: string; args: readonly unknown[] };

interface BaseNameRecords extends EnsRegistration {
  name: string;
  resolver: Address | null;
  controller: Address | null;
  address: Address | null;
  contentHash: string | null;
  texts: Record<string, string>;
  coinAddresses: Record<string, string>;
}

const nonZero = (address: Address | null | undefined): Address | null =>
  address && address !== zeroAddress ? address : null;
const ok = <T>(r: MulticallResult | undefined): T | null => (r?.status === 'success' ? (r.result as T) : null);

/**
 * Base names read on Base itself, in ONE Multicall3 `eth_call` per batch: per name the registry's resolver and owner,
 * the registrar's expiry and registrant, and addr / contenthash / text on the usual L2 resolver. A name whose
 * registry resolver is another contract is finished by one more call to that resolver. Primary names (reverse) are
 * read the same way from the Base reverse namespace, then forward-checked with the same read.
 * @example
 * const reader = new BaseNamesReader({ client, contracts: BASENAMES_CONTRACTS, reads: new BlockReads({ client, rpc: rpc.base }) })
 * await reader.addresses(['jesse.base.eth']) // ['0x…']
 * await reader.primaryNames(['0x…']) // ['jesse.base.eth']
 */
export class BaseNamesReader {
  constructor(private readonly p: { client: ChainRpcClient; contracts: BaseNamesContracts; reads: BlockReads }) {}

  /**
   * docs/api-contract.md#data-freshness: each read is exact for the head block, made once per block. `askedAt`, on
   * every read: when the request it is made for arrived (block-reads.ts); undefined for a read made for none.
   */
  private load<T>(key: string, fetcher: () => Promise<T>, askedAt: AskedAt | undefined): Promise<T> {
    return this.p.reads.read(key, fetcher, askedAt);
  }

  /** The address each name resolves to; null when unresolved, unregistered or expired. */
  addresses(names: readonly string[], askedAt?: AskedAt): Promise<(Address | null)[]> {
    return this.load(
      `basenames:addr:${names.join(',')}`,
      async () =>
        (await this.read(names, { addr: true, contenthash: false, textKeys: [] })).map((r) =>
          r?.active ? r.address : null,
        ),
      askedAt,
    );
  }

  /** One text record of each name; null when unset, unresolved or expired. */
  texts(names: readonly string[], key: string, askedAt?: AskedAt): Promise<(string | null)[]> {
    return this.load(
      `basenames:text:${key}:${names.join(',')}`,
      async () =>
        (await this.read(names, { addr: false, contenthash: false, textKeys: [key] })).map((r) =>
          r?.active ? (r.texts[key] ?? null) : null,
        ),
      askedAt,
    );
  }

  /** Full profiles, with the extra text keys and coin types asked; null when not registered (no resolver and no owner) or expired. */
  profiles(
    names: readonly string[],
    extras: ProfileExtras = NO_EXTRAS,
    askedAt?: AskedAt,
  ): Promise<(EnsProfileRecord | null)[]> {
    const textKeys = profileTextKeys(extras);
    const want = { addr: true, contenthash: true, textKeys, coinTypes: extras.coinTypes };
    const asked = { textKeys, coinTypes: extras.coinTypes };
    return this.load(
      `basenames:profile:${extrasKey(extras)}:${names.join(',')}`,
      async () =>
        (await this.read(names, want)).map((r) => {
          if (!r?.active || (r.resolver === null && r.controller === null)) return null;
          const { avatar, ...texts } = r.texts;
          return { ...r, avatarRecord: avatar ?? null, texts, asked };
        }),
      askedAt,
    );
  }

  /**
   * Each address's Base primary name: the `name` record of `<address>.80002105.reverse` (ENSIP-11/19), where Basenames'
   * ReverseRegistrar sets it, kept only when it is a normalised Base name that resolves back to the address on Base.
   * One `eth_call` reads every reverse record, one more forward-checks the names found (none when none is set).
   */
  primaryNames(addresses: readonly Address[], askedAt?: AskedAt): Promise<(string | null)[]> {
    return this.load(
      `basenames:name:${addresses.join(',')}`,
      async () => {
        const claimed = (await this.reverseRecords(addresses)).map((name) =>
          name && isBaseName(name) && isNormalizedEnsName(name) ? name : null,
        );
        const names = [...new Set(claimed.filter((name): name is string => name !== null))];
        const records = await this.read(names, { addr: true, contenthash: false, textKeys: [] });
        const resolvesTo = new Map(records.map((r, i) => [names[i]!, r?.active ? r.address : null]));
        return claimed.map((name, i) => {
          const address = name === null ? null : resolvesTo.get(name);
          return address && isAddressEqual(address, addresses[i]!) ? name : null;
        });
      },
      askedAt,
    );
  }

  /** The name record of each address's Base reverse node, from the resolver the registry names for that node. */
  private async reverseRecords(addresses: readonly Address[]): Promise<(string | null)[]> {
    const { registry, resolver: usualResolver } = this.p.contracts;
    const nodes = addresses.map((address) => namehash(reverseNameOf(address, BASE_COIN_TYPE)));
    const results = await this.multicall(
      nodes.flatMap((node): Read[] => [
        { address: registry, abi: ensRegistryAbi, functionName: 'resolver', args: [node] },
        { address: usualResolver, abi: nameResolverAbi, functionName: 'name', args: [node] },
      ]),
    );
    const records = nodes.map((node, i) => ({
      node,
      resolver: nonZero(ok<Address>(results[2 * i])),
      name: ok<string>(results[2 * i + 1]) || null,
    }));
    // Reverse nodes whose resolver is not the usual one: ask their own resolver, all in one more call.
    const elsewhere = records.filter((r) => r.resolver !== null && !isAddressEqual(r.resolver, usualResolver));
    const answers = await this.multicall(
      elsewhere.map(
        (r): Read => ({ address: r.resolver!, abi: nameResolverAbi, functionName: 'name', args: [r.node] }),
      ),
    );
    elsewhere.forEach((r, i) => {
      r.name = ok<string>(answers[i]) || null;
    });
    return records.map((r) => (r.resolver === null ? null : r.name));
  }

  private resolverReads(resolver: Address, node: Hex, want: Wanted): Read[] {
    const read = (functionName: string, args: readonly unknown[]): Read => ({
      address: resolver,
      abi: resolverProfileAbi,
      functionName,
      args,
    });
    return [
      ...(want.addr ? [read('addr', [node])] : []),
      ...(want.contenthash ? [read('contenthash', [node])] : []),
      ...want.textKeys.map((key) => read('text', [node, key])),
      ...(want.coinTypes ?? []).map((coinType) => ({
        address: resolver,
        abi: multicoinAddrAbi,
        functionName: 'addr',
        args: [node, BigInt(coinType)],
      })),
    ];
  }

  private async multicall(reads: Read[]): Promise<MulticallResult[]> {
    if (reads.length === 0) return [];
    return readAllInOneCall(this.p.client, reads);
  }

  private async read(names: readonly string[], want: Wanted): Promise<(BaseNameRecords | null)[]> {
    const { registry, resolver: usualResolver, registrar } = this.p.contracts;
    const plans = names.map((name) => {
      const node = namehash(name);
      const label = name.slice(0, -`.${BASE_NAMES_PARENT}`.length).split('.').at(-1)!;
      const reads: Read[] = [
        { address: registry, abi: ensRegistryAbi, functionName: 'resolver', args: [node] },
        { address: registry, abi: ensRegistryAbi, functionName: 'owner', args: [node] },
      ];
      if (registrar) {
        const id = BigInt(labelhash(label));
        reads.push({ address: registrar, abi: ethRegistrarAbi, functionName: 'nameExpires', args: [id] });
        reads.push({ address: registrar, abi: ethRegistrarAbi, functionName: 'ownerOf', args: [id] });
      }
      return { name, node, reads, answers: this.resolverReads(usualResolver, node, want) };
    });
    const results = await this.multicall(plans.flatMap((plan) => [...plan.reads, ...plan.answers]));

    let next = 0;
    const firstPass = plans.map((plan) => {
      const own = results.slice(next, next + plan.reads.length);
      const answers = results.slice(next + plan.reads.length, next + plan.reads.length + plan.answers.length);
      next += plan.reads.length + plan.answers.length;
      const resolver = nonZero(ok<Address>(own[0]));
      const controller = nonZero(ok<Address>(own[1]));
      const registrant = registrar ? nonZero(ok<Address>(own[3])) : null;
      const expires = registrar ? ok<bigint>(own[2]) : null;
      const registration: EnsRegistration = registrar
        ? { active: registrant !== null, registrant, expiresAt: expires ? Number(expires) : null }
        : { active: true, registrant: null, expiresAt: null };
      return { plan, resolver, controller, registration, answers };
    });

    // Names whose registry resolver is not the usual one: ask their own resolver, all in one more call.
    const elsewhere = firstPass.filter(
      (r) => r.registration.active && r.resolver !== null && !isAddressEqual(r.resolver, usualResolver),
    );
    const followUps = elsewhere.map((r) => this.resolverReads(r.resolver!, r.plan.node, want));
    const followResults = await this.multicall(followUps.flat());
    let at = 0;
    elsewhere.forEach((r, i) => {
      r.answers = followResults.slice(at, at + followUps[i]!.length);
      at += followUps[i]!.length;
    });

    return firstPass.map(({ plan, resolver, controller, registration, answers }) => {
      const base = {
        name: plan.name,
        resolver,
        controller,
        ...registration,
        address: null,
        contentHash: null,
        texts: {},
        coinAddresses: {},
      };
      if (resolver === null) return base;
      let i = 0;
      const address = want.addr ? nonZero(ok<Address>(answers[i++])) : null;
      const hash = want.contenthash ? ok<Hex>(answers[i++]) : null;
      const texts: Record<string, string> = {};
      for (const key of want.textKeys) {
        const value = ok<string>(answers[i++]);
        if (value) texts[key] = value;
      }
      const coinAddresses: Record<string, string> = {};
      for (const coinType of want.coinTypes ?? []) {
        const bytes = ok<Hex>(answers[i++]);
        const text = bytes === null ? null : coinAddressText(coinType, bytes);
        if (text !== null) coinAddresses[String(coinType)] = text;
      }
      const contentHash = hash && hash !== '0x' ? decodeContentHash(hash) : null;
      return { ...base, address, contentHash, texts, coinAddresses };
    });
  }
}
