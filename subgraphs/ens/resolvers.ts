import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import { type Address, getAddress, isAddress } from 'viem';
import { domainsLimit, domainsOffset, ensNameBatch } from '../../src/arguments/ens-arguments.js';
import { DEFAULT_DOMAINS_LIMIT, MAX_ENS_BATCH } from '../../src/arguments/ens-limits.js';
import { ensName, normalizeEnsName } from '../../src/arguments/ens-name.js';
import { checksummedAddress } from '../../src/arguments/evm-address.js';
import { DEFAULT_PAGE_OFFSET, MAX_PAGE_LIMIT } from '../../src/arguments/pagination.js';
import { parseArgument } from '../../src/arguments/parse-argument.js';
import { serviceUnavailable } from '../../src/errors/api-error.js';
import { avatarLink } from '../../src/sources/ens/avatar-uri.js';
import type { EnsProfileRecord } from '../../src/sources/ens/ens-chain-reader.js';

import type { GraphContext } from '../shared/graph-context.js';
import { ensAddressLoader, ensAvatarRecordLoader, ensPrimaryNameLoader, ensProfileLoader } from './loaders.js';
import {
  EnsAvatar,
  EnsBatchResult,
  EnsDomainsPage,
  EnsPrimaryName,
  EnsProfile,
  EnsResolution,
  EnsTextRecord,
  Wallet,
} from './types.js';

/**
 * ENS text keys → the keys the contract shows records under, in its order
 * (docs/api-contract.md#ens-resolution-and-profile).
 */
const RECORD_KEYS: readonly (readonly [ensKey: string, specKey: string])[] = [
  ['com.twitter', 'twitter'],
  ['com.github', 'github'],
  ['url', 'url'],
  ['description', 'description'],
  ['email', 'email'],
  ['com.discord', 'com.discord'],
];

const isoSeconds = (seconds: number | null): string | null =>
  seconds === null ? null : new Date(seconds * 1000).toISOString();

/**
 * Up to MAX_ENS_BATCH names, each normalised; a repeated name is kept once.
 * @example batchNames(['Alice.eth', 'alice.eth']) // ['alice.eth']
 */
export function batchNames(names: readonly string[]): string[] {
  return [...new Set(parseArgument(ensNameBatch, 'names', names))];
}

/** A profile record from the chain → the GraphQL (and REST) shape. */
export function toEnsProfile(record: EnsProfileRecord): EnsProfile {
  const records: EnsTextRecord[] = RECORD_KEYS.flatMap(([ensKey, key]) => {
    const value = record.texts[ensKey];
    return value === undefined ? [] : [{ key, value }];
  });
  return {
    name: record.name,
    address: record.address,
    avatar: record.avatarRecord === null ? null : (avatarLink(record.avatarRecord, record.name)?.url ?? null),
    contentHash: record.contentHash,
    records,
    expiration: isoSeconds(record.expiresAt),
    registrant: record.registrant,
    controller: record.controller,
    resolver: record.resolver,
  };
}

async function loadProfile(name: string, ctx: GraphContext): Promise<EnsProfile | null> {
  const record = await ensProfileLoader.of(ctx).load(name);
  return record ? withGatewayOwner(toEnsProfile(record), ctx) : null;
}

/**
 * A subname this service's CCIP gateway serves is held off chain, where the chain shows no owner: its registrant is
 * the owner the gateway registered it to, never its parent's.
 */
async function withGatewayOwner(profile: EnsProfile, ctx: GraphContext): Promise<EnsProfile> {
  if (profile.registrant !== null || profile.name.split('.').length < 3) return profile;
  const owner = await ctx.app.ccip.subnameOwner(profile.name);
  return owner === null ? profile : { ...profile, registrant: getAddress(owner) };
}

/** Rejects the whole batch with the first failure, as one upstream call failed. */
function settled<T>(values: (T | Error)[]): T[] {
  const failure = values.find((v): v is Error => v instanceof Error);
  if (failure) throw failure;
  return values as T[];
}

@Resolver()
export class EnsResolver {
  @Query(() => EnsResolution, {
    nullable: true,
    description: 'The address an ENS name resolves to; null when unregistered, expired or unset',
  })
  async ensResolve(
    @Arg('name', () => String, { description: 'ENS name, e.g. alice.eth' }) name: string,
    @Ctx() ctx: GraphContext,
  ): Promise<EnsResolution | null> {
    const normalized = parseArgument(ensName, 'name', name);
    const address = await ensAddressLoader.of(ctx).load(normalized);
    return address ? { name: normalized, address } : null;
  }

  @Query(() => EnsProfile, {
    nullable: true,
    description:
      'An ENS profile: address, avatar, content hash, text records, registration; null when unregistered or expired',
  })
  async ensProfile(
    @Arg('name', () => String, { description: 'ENS name, e.g. alice.eth' }) name: string,
    @Ctx() ctx: GraphContext,
  ): Promise<EnsProfile | null> {
    return loadProfile(parseArgument(ensName, 'name', name), ctx);
  }

  @Query(() => [EnsProfile], {
    nullable: 'items',
    description: `Up to ${MAX_ENS_BATCH} profiles read together in one chain call; null for a name unregistered or expired`,
  })
  async ensProfiles(
    @Arg('names', () => [String], { description: `1 to ${MAX_ENS_BATCH} ENS names` }) names: string[],
    @Ctx() ctx: GraphContext,
  ): Promise<(EnsProfile | null)[]> {
    const normalized = parseArgument(ensNameBatch, 'names', names);
    const records = settled(await ensProfileLoader.of(ctx).loadMany(normalized));
    return Promise.all(records.map((r) => (r ? withGatewayOwner(toEnsProfile(r), ctx) : null)));
  }

  @Query(() => EnsAvatar, {
    nullable: true,
    description:
      'The avatar of a name as a loadable link (ENSIP-12); null when none is set or it is not a supported URI',
  })
  async ensAvatar(
    @Arg('name', () => String, { description: 'ENS name, e.g. alice.eth' }) name: string,
    @Ctx() ctx: GraphContext,
  ): Promise<EnsAvatar | null> {
    const normalized = parseArgument(ensName, 'name', name);
    const record = await ensAvatarRecordLoader.of(ctx).load(normalized);
    const link = record === null ? null : avatarLink(record, normalized);
    return link && record !== null ? { avatar: link.url, type: link.type, record } : null;
  }

  @Query(() => EnsPrimaryName, {
    nullable: true,
    description:
      'The primary name of an address, only if it resolves back to the address: the Ethereum one (ENSIP-19) when set, else the Base one (Basenames)',
  })
  async ensReverse(
    @Arg('address', () => String, { description: '0x address' }) address: string,
    @Ctx() ctx: GraphContext,
  ): Promise<EnsPrimaryName | null> {
    const checksummed = parseArgument(checksummedAddress, 'address', address);
    const primary = await ensPrimaryNameLoader.of(ctx).load(checksummed);
    return primary ? { name: primary.name, address: checksummed, chain: primary.chain } : null;
  }

  @Query(() => EnsBatchResult, { description: `Addresses of up to ${MAX_ENS_BATCH} names in one chain call` })
  async ensBatch(
    @Arg('names', () => [String], { description: `1 to ${MAX_ENS_BATCH} ENS names` }) names: string[],
    @Ctx() ctx: GraphContext,
  ): Promise<EnsBatchResult> {
    const unique = batchNames(names);
    const addresses = settled(await ensAddressLoader.of(ctx).loadMany(unique));
    const results = unique.map((name, i) => ({ name, address: addresses[i] ?? null }));
    return { results, count: results.length, resolved: results.filter((r) => r.address !== null).length };
  }

  @Query(() => EnsDomainsPage, {
    description:
      'Names an address holds as registrant or controller, on Ethereum and Base (under base.eth), sorted by name',
  })
  async ensDomains(
    @Arg('address', () => String, { description: '0x address' }) address: string,
    @Arg('limit', () => Int, { defaultValue: DEFAULT_DOMAINS_LIMIT, description: `1 to ${MAX_PAGE_LIMIT}` })
    limit: number,
    @Arg('offset', () => Int, { defaultValue: DEFAULT_PAGE_OFFSET, description: 'names to skip' }) offset: number,
    @Ctx() ctx: GraphContext,
  ): Promise<EnsDomainsPage> {
    const checksummed = parseArgument(checksummedAddress, 'address', address);
    parseArgument(domainsLimit, 'limit', limit);
    parseArgument(domainsOffset, 'offset', offset);
    const source = ctx.sources.ens.domains;
    if (!source) throw serviceUnavailable('ENS names by address are unavailable: set ENS_SUBGRAPH_URL');
    const all = await source.domainsOf(checksummed);
    const page = all.slice(offset, offset + limit).map((d) => ({ ...d, expiration: isoSeconds(d.expiresAt) }));
    return { data: page, pagination: { limit, offset, total: all.length, hasMore: offset + page.length < all.length } };
  }
}

@Resolver(() => EnsProfile)
export class EnsProfileWalletResolver {
  @FieldResolver(() => Wallet, {
    nullable: true,
    description: 'The wallet the name resolves to: other subgraphs add balances and the Farcaster user',
  })
  wallet(@Root() profile: EnsProfile): Wallet | null {
    return profile.address ? { address: profile.address } : null;
  }
}

@Resolver(() => Wallet)
export class EnsWalletResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description:
      'Primary ENS name of the wallet, only if it resolves back to the address: the Ethereum one (ENSIP-19) when set, else the Base one',
  })
  async primaryName(@Root() wallet: Wallet, @Ctx() ctx: GraphContext): Promise<string | null> {
    return (await ensPrimaryNameLoader.of(ctx).load(getAddress(wallet.address)))?.name ?? null;
  }
}

/** Federation entry points: other subgraphs reference profiles by name and wallets by address (any case). */
export const ensReferenceResolvers = {
  EnsProfile: {
    __resolveReference: (ref: { name?: unknown }, ctx: GraphContext): Promise<EnsProfile | null> | null =>
      typeof ref.name === 'string' ? loadProfile(normalizeEnsName(ref.name), ctx) : null,
  },
  Wallet: {
    __resolveReference: (ref: { address?: unknown }): Wallet | null =>
      typeof ref.address === 'string' && isAddress(ref.address, { strict: false })
        ? { address: getAddress(ref.address as Address) }
        : null,
  },
};
