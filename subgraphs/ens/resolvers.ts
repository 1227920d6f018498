import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Ctx, FieldResolver, Info, Int, Query, Resolver, Root } from 'type-graphql';
import { getAddress } from 'viem';
import { argumentOptions } from '../../src/arguments/argument-options.js';
import {
  coinLabel,
  domainsLimit,
  domainsOffset,
  ensCoin,
  ensCoins,
  ensNameBatch,
  ensTextKey,
  ensTextKeys,
} from '../../src/arguments/ens-arguments.js';
import { MAX_ENS_BATCH, MAX_ENS_COIN_TYPES, MAX_ENS_TEXT_KEYS } from '../../src/arguments/ens-limits.js';
import { ensName, normalizeEnsName } from '../../src/arguments/ens-name.js';
import { checksummedAddress, EVM_ADDRESS_PATTERN, eip55Address } from '../../src/arguments/evm-address.js';
import { parseArgument } from '../../src/arguments/parse-argument.js';
import { serviceUnavailable } from '../../src/errors/api-error.js';
import { type AvatarLink, avatarLink } from '../../src/sources/ens/avatar-uri.js';
import { ETH_COIN } from '../../src/sources/ens/coin-addresses.js';
import { type EnsProfileRecord, NO_EXTRAS, type ProfileExtras } from '../../src/sources/ens/ens-chain-reader.js';
import { nftAvatarLink, parseNftAvatar } from '../../src/sources/ens/nft-avatar.js';

import type { GraphContext } from '../shared/graph-context.js';
import {
  ensAddressLoader,
  ensAvatarRecordLoader,
  ensPrimaryNameLoader,
  ensProfileLoader,
  ensRecordKeysLoader,
  nftAvatarLoader,
} from './loaders.js';
import { recordsAsked } from './records-asked.js';
import {
  EnsAvatar,
  EnsBatchResult,
  EnsCoinAddress,
  EnsDomainsPage,
  EnsNameRecords,
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

/** What a profile shows of a read beyond copying its fields: its records as the contract lists them, links, dates. */
interface ShownRead {
  records: EnsTextRecord[];
  avatar: string | null;
  expiration: string | null;
}

/**
 * Each read's {@link ShownRead}, worked out once: a read is kept across requests while the chain head stays
 * (src/sources/rpc/block-reads.ts), and these took most of a profile's making. Only read, never written: the
 * profiles and answers made from it share it.
 */
const shownReads = new WeakMap<EnsProfileRecord, ShownRead>();

function shownRead(record: EnsProfileRecord): ShownRead {
  let shown = shownReads.get(record);
  if (shown === undefined) {
    const records: EnsTextRecord[] = [];
    for (const [ensKey, key] of RECORD_KEYS) {
      const value = record.texts[ensKey];
      if (value !== undefined) records.push({ key, value });
    }
    shown = {
      records,
      avatar: record.avatarRecord === null ? null : (avatarLink(record.avatarRecord, record.name)?.url ?? null),
      expiration: isoSeconds(record.expiresAt),
    };
    shownReads.set(record, shown);
  }
  return shown;
}

/** A profile record from the chain → the GraphQL (and REST) shape: a new profile each time, its entity own. */
export function toEnsProfile(record: EnsProfileRecord): EnsProfile {
  const shown = shownRead(record);
  return {
    name: record.name,
    address: record.address,
    avatar: shown.avatar,
    contentHash: record.contentHash,
    records: shown.records,
    expiration: shown.expiration,
    registrant: record.registrant,
    controller: record.controller,
    resolver: record.resolver,
    read: record,
  };
}

async function loadProfile(name: string, ctx: GraphContext, extras: ProfileExtras): Promise<EnsProfile | null> {
  const record = await ensProfileLoader.of(ctx).load({ name, extras });
  return record ? shownProfile(record, ctx) : null;
}

/** A read as the API shows it: an NFT avatar checked on chain, a gateway subname's own owner. */
async function shownProfile(record: EnsProfileRecord, ctx: GraphContext): Promise<EnsProfile> {
  const profile = await withGatewayOwner(toEnsProfile(record), ctx);
  if (record.avatarRecord === null || parseNftAvatar(record.avatarRecord) === null) return profile;
  const link = await imageLink(record.avatarRecord, record.name, record.address, ctx);
  return { ...profile, avatar: link?.url ?? null };
}

/**
 * An ENSIP-12 image record (avatar, header) → a link a browser can load: an NFT through its owner check and its
 * metadata (one `eth_call` for every NFT of the request), anything else as {@link avatarLink} writes it.
 */
async function imageLink(
  record: string,
  name: string,
  owner: string | null,
  ctx: GraphContext,
): Promise<AvatarLink | null> {
  const ref = parseNftAvatar(record);
  if (ref === null) return avatarLink(record, name);
  if (owner === null) return null;
  const read = await nftAvatarLoader.of(ctx).load({ ref, owner: getAddress(owner) });
  return nftAvatarLink(ref, read, name);
}

/**
 * The read a profile's record fields answer from: the profile's own when it asked them (the operation's selection
 * was read ahead), else one more read of the name for them (a profile reached through a federation reference).
 */
async function readWith(profile: EnsProfile, ctx: GraphContext, extras: ProfileExtras): Promise<EnsProfileRecord> {
  const read = profile.read;
  if (
    read &&
    extras.textKeys.every((key) => read.asked.textKeys.includes(key)) &&
    extras.coinTypes.every((coinType) => read.asked.coinTypes.includes(coinType))
  )
    return read;
  return (await ensProfileLoader.of(ctx).load({ name: profile.name, extras })) ?? emptyRead(profile.name, extras);
}

/** A name that no longer reads as registered between two reads of one request: it has no records. */
function emptyRead(name: string, extras: ProfileExtras): EnsProfileRecord {
  return {
    name,
    active: false,
    registrant: null,
    expiresAt: null,
    address: null,
    avatarRecord: null,
    contentHash: null,
    texts: {},
    coinAddresses: {},
    asked: extras,
    resolver: null,
    controller: null,
  };
}

/** A text record from a read: avatar is kept apart from the others. */
function textOf(read: EnsProfileRecord, key: string): string | null {
  if (key === 'avatar') return read.avatarRecord;
  return Object.hasOwn(read.texts, key) ? (read.texts[key] ?? null) : null;
}

/** A coin's address from a read: ETH's is the profile's own address. */
function coinAddressOf(read: EnsProfileRecord, coinType: number): string | null {
  if (coinType === ETH_COIN && !read.asked.coinTypes.includes(ETH_COIN)) return read.address;
  return read.coinAddresses[String(coinType)] ?? null;
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

/**
 * Every record a name has: its keys from the records source (resolver logs, or the subgraph), their values from a
 * read of the name that asks them all (one Universal Resolver call for every name of the request). A key whose value
 * is now empty is left out; keys no argument could ask (over-long) are not read.
 */
async function allRecords(name: string, ctx: GraphContext, profile?: EnsProfile): Promise<EnsNameRecords | null> {
  const keys = await ensRecordKeysLoader.of(ctx).load(name);
  const extras: ProfileExtras = {
    textKeys: keys.textKeys.filter((key) => ensTextKey.safeParse(key).success),
    coinTypes: keys.coinTypes,
  };
  const read = profile ? await readWith(profile, ctx, extras) : await ensProfileLoader.of(ctx).load({ name, extras });
  if (!read) return null;
  const texts = extras.textKeys.flatMap((key) => {
    const value = textOf(read, key);
    return value === null || value === '' ? [] : [{ key, value }];
  });
  const addresses = extras.coinTypes.flatMap((coinType) => {
    const address = coinAddressOf(read, coinType);
    return address === null ? [] : [{ coin: coinLabel(coinType), coinType: String(coinType), address }];
  });
  return { name, texts, addresses, contentHash: keys.contentHash ? read.contentHash : null };
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
    @Info() info: GraphQLResolveInfo,
  ): Promise<EnsProfile | null> {
    return loadProfile(parseArgument(ensName, 'name', name), ctx, recordsAsked(info));
  }

  @Query(() => [EnsProfile], {
    nullable: 'items',
    description: `Up to ${MAX_ENS_BATCH} profiles read together in one chain call; null for a name unregistered or expired`,
  })
  async ensProfiles(
    @Arg('names', () => [String], { description: `1 to ${MAX_ENS_BATCH} ENS names` }) names: string[],
    @Ctx() ctx: GraphContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<(EnsProfile | null)[]> {
    const normalized = parseArgument(ensNameBatch, 'names', names);
    const extras = recordsAsked(info);
    const records = settled(await ensProfileLoader.of(ctx).loadMany(normalized.map((name) => ({ name, extras }))));
    return Promise.all(records.map((r) => (r ? shownProfile(r, ctx) : null)));
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
    const [record, owner] = await Promise.all([
      ensAvatarRecordLoader.of(ctx).load(normalized),
      ensAddressLoader.of(ctx).load(normalized),
    ]);
    const link = record === null ? null : await imageLink(record, normalized, owner, ctx);
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

  @Query(() => EnsNameRecords, {
    nullable: true,
    description:
      'Every record a name has set (text keys, coin addresses, content hash) with its value; null when unregistered or expired',
  })
  async ensRecords(
    @Arg('name', () => String, { description: 'ENS name, e.g. alice.eth' }) name: string,
    @Ctx() ctx: GraphContext,
  ): Promise<EnsNameRecords | null> {
    return allRecords(parseArgument(ensName, 'name', name), ctx);
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
    @Arg('limit', () => Int, argumentOptions(domainsLimit)) limit: number,
    @Arg('offset', () => Int, argumentOptions(domainsOffset)) offset: number,
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

@Resolver(() => EnsProfile)
export class EnsProfileRecordsResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description:
      'The header image (ENSIP-18 `header` record) as a link a browser can load, by the avatar’s rules (ENSIP-12); null when unset or unsupported',
  })
  async header(@Root() profile: EnsProfile, @Ctx() ctx: GraphContext): Promise<string | null> {
    const read = await readWith(profile, ctx, { ...NO_EXTRAS, textKeys: ['header'] });
    const record = textOf(read, 'header');
    return record === null ? null : ((await imageLink(record, profile.name, read.address, ctx))?.url ?? null);
  }

  @FieldResolver(() => EnsNameRecords, {
    description:
      'Every record the name has set (text keys, coin addresses, content hash) with its value, as ensRecords lists them',
  })
  async allRecords(@Root() profile: EnsProfile, @Ctx() ctx: GraphContext): Promise<EnsNameRecords> {
    return (
      (await allRecords(profile.name, ctx, profile)) ?? {
        name: profile.name,
        texts: [],
        addresses: [],
        contentHash: null,
      }
    );
  }

  @FieldResolver(() => String, {
    nullable: true,
    description:
      'The text record under an ENS key (ENSIP-5: avatar, com.twitter, org.example.custom …) as set; null when unset. Read in the profile’s own chain call',
  })
  async text(
    @Root() profile: EnsProfile,
    @Arg('key', () => String, { description: 'ENS text record key, e.g. com.twitter' }) key: string,
    @Ctx() ctx: GraphContext,
  ): Promise<string | null> {
    const parsed = parseArgument(ensTextKey, 'key', key);
    return textOf(await readWith(profile, ctx, { ...NO_EXTRAS, textKeys: [parsed] }), parsed);
  }

  @FieldResolver(() => [EnsTextRecord], {
    description: `The set text records among up to ${MAX_ENS_TEXT_KEYS} ENS keys, by their own keys, in the order asked; unset keys are left out`,
  })
  async texts(
    @Root() profile: EnsProfile,
    @Arg('keys', () => [String], { description: `1 to ${MAX_ENS_TEXT_KEYS} ENS text record keys` }) keys: string[],
    @Ctx() ctx: GraphContext,
  ): Promise<EnsTextRecord[]> {
    const parsed = parseArgument(ensTextKeys, 'keys', keys);
    if (parsed.length === 0) return [];
    const read = await readWith(profile, ctx, { ...NO_EXTRAS, textKeys: parsed });
    return parsed.flatMap((key) => {
      const value = textOf(read, key);
      return value === null ? [] : [{ key, value }];
    });
  }

  @FieldResolver(() => String, {
    nullable: true,
    description:
      'The address for one coin (ENSIP-9/11): btc, sol, base, eip155:<chain id> or a coin type; null when unset',
  })
  async coinAddress(
    @Root() profile: EnsProfile,
    @Arg('coin', () => String, { description: 'coin name (btc, sol, base …), coin type, or eip155:<chain id>' })
    coin: string,
    @Ctx() ctx: GraphContext,
  ): Promise<string | null> {
    const coinType = parseArgument(ensCoin, 'coin', coin);
    return coinAddressOf(await readWith(profile, ctx, { ...NO_EXTRAS, coinTypes: [coinType] }), coinType);
  }

  @FieldResolver(() => [EnsCoinAddress], {
    description: `The set addresses among up to ${MAX_ENS_COIN_TYPES} coins (ENSIP-9/11), in the order asked; unset coins are left out`,
  })
  async coinAddresses(
    @Root() profile: EnsProfile,
    @Arg('coins', () => [String], {
      description: `1 to ${MAX_ENS_COIN_TYPES} coins: names, coin types or eip155:<chain id>`,
    })
    coins: string[],
    @Ctx() ctx: GraphContext,
  ): Promise<EnsCoinAddress[]> {
    const coinTypes = parseArgument(ensCoins, 'coins', coins);
    if (coinTypes.length === 0) return [];
    const read = await readWith(profile, ctx, { ...NO_EXTRAS, coinTypes });
    return coinTypes.flatMap((coinType) => {
      const address = coinAddressOf(read, coinType);
      return address === null ? [] : [{ coin: coinLabel(coinType), coinType: String(coinType), address }];
    });
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
    return (await ensPrimaryNameLoader.of(ctx).load(eip55Address(wallet.address)))?.name ?? null;
  }
}

/** Federation entry points: other subgraphs reference profiles by name and wallets by address (any case). */
export const ensReferenceResolvers = {
  EnsProfile: {
    __resolveReference: (ref: { name?: unknown }, ctx: GraphContext): Promise<EnsProfile | null> | null =>
      typeof ref.name === 'string' ? loadProfile(normalizeEnsName(ref.name), ctx, NO_EXTRAS) : null,
  },
  Wallet: {
    __resolveReference: (ref: { address?: unknown }): Wallet | null =>
      typeof ref.address === 'string' && EVM_ADDRESS_PATTERN.test(ref.address)
        ? { address: eip55Address(ref.address) }
        : null,
  },
};
