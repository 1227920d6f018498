import type { Address } from 'viem';
import { MAX_ENS_BATCH } from '../../src/arguments/ens-limits.js';
import { serviceUnavailable } from '../../src/errors/api-error.js';
import { type EnsProfileRecord, extrasKey, type ProfileExtras } from '../../src/sources/ens/ens-chain-reader.js';
import type { EnsPrimaryNameRecord, EnsReader } from '../../src/sources/ens/ens-reader.js';
import type { EnsRecordKeys } from '../../src/sources/ens/ens-record-keys.js';
import type { NftAvatarRead, NftAvatarRef } from '../../src/sources/ens/nft-avatar.js';
import type { Sources } from '../../src/sources/sources.js';
import { defineLoader } from '../shared/define-loader.js';

function readerOf(sources: Sources): EnsReader {
  const reader = sources.ens.reader;
  if (!reader) throw serviceUnavailable('ENS is unavailable: no Ethereum RPC with ENS contracts is configured');
  return reader;
}

/**
 * Addresses of names: every name asked in one request is ONE batch of viem ENS actions, i.e. one `eth_call`.
 * @example await ensAddressLoader.of(ctx).loadMany(['alice.eth', 'bob.eth'])
 */
export const ensAddressLoader = defineLoader<string, Address | null, Sources>({
  name: 'ensAddress',
  batch: (names, sources, askedAt) => readerOf(sources).addresses(names, askedAt),
  maxBatchSize: MAX_ENS_BATCH,
});

/**
 * The records names have (keys only): every name asked in one request is ONE ask of the source (one `eth_getLogs` on
 * the embedded chain, one subgraph query live).
 * @example await ensRecordKeysLoader.of(ctx).load('alice.eth') // { textKeys: ['avatar', …], coinTypes: [60, 0], contentHash: true }
 */
export const ensRecordKeysLoader = defineLoader<string, EnsRecordKeys, Sources>({
  name: 'ensRecordKeys',
  batch: (names, sources) => {
    const source = sources.ens.recordKeys;
    if (!source)
      throw serviceUnavailable(
        'The records of a name are unavailable: set ENS_SUBGRAPH_URL (or run the embedded chain)',
      );
    return source.recordKeys(names);
  },
  maxBatchSize: MAX_ENS_BATCH,
});

/**
 * Forward-checked primary names of addresses (Ethereum's, else Base's), one batch per chain per request.
 * @example await ensPrimaryNameLoader.of(ctx).load('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
 */
export const ensPrimaryNameLoader = defineLoader<Address, EnsPrimaryNameRecord | null, Sources>({
  name: 'ensPrimaryName',
  batch: (addresses, sources, askedAt) => readerOf(sources).primaryNames(addresses, askedAt),
  maxBatchSize: MAX_ENS_BATCH,
});

/** A profile to read, with the records asked beyond the profile's own. */
export interface ProfileAsk {
  name: string;
  extras: ProfileExtras;
}

/** Each entry once, in the order first seen. */
const union = <T>(lists: readonly (readonly T[])[]): T[] => [...new Set(lists.flat())];

/**
 * Full profiles: every profile asked in one request is ONE multicall `eth_call`, every name read with every extra
 * text key and coin type any of them asked (one Universal Resolver call per name either way).
 * @example await ensProfileLoader.of(ctx).load({ name: 'alice.eth', extras: { textKeys: ['org.example'], coinTypes: [0] } })
 */
export const ensProfileLoader = defineLoader<ProfileAsk, EnsProfileRecord | null, Sources, string>({
  name: 'ensProfile',
  cacheKey: (ask) => `${ask.name}\n${extrasKey(ask.extras)}`,
  batch: async (asks, sources, askedAt) => {
    const names = [...new Set(asks.map((ask) => ask.name))];
    const extras: ProfileExtras = {
      textKeys: union(asks.map((ask) => ask.extras.textKeys)),
      coinTypes: union(asks.map((ask) => ask.extras.coinTypes)),
    };
    const records = await readerOf(sources).profiles(names, extras, askedAt);
    const byName = new Map(names.map((name, i) => [name, records[i] ?? null]));
    return asks.map((ask) => byName.get(ask.name) ?? null);
  },
  maxBatchSize: MAX_ENS_BATCH,
});

/**
 * Avatar text records, one batch per request.
 * @example await ensAvatarRecordLoader.of(ctx).load('alice.eth')
 */
export const ensAvatarRecordLoader = defineLoader<string, string | null, Sources>({
  name: 'ensAvatarRecord',
  batch: (names, sources, askedAt) => readerOf(sources).texts(names, 'avatar', askedAt),
  maxBatchSize: MAX_ENS_BATCH,
});

/** An NFT avatar to check: the token, and the address that must hold it. */
export interface NftAvatarAsk {
  ref: NftAvatarRef;
  owner: Address;
}

/**
 * NFT avatars (ENSIP-12): every one a request shows is ONE `eth_call` (owner check and token URI per token).
 * @example await nftAvatarLoader.of(ctx).load({ ref: parseNftAvatar(record)!, owner: '0x…' })
 */
export const nftAvatarLoader = defineLoader<NftAvatarAsk, NftAvatarRead, Sources, string>({
  name: 'nftAvatar',
  cacheKey: ({ ref, owner }) => `${ref.chainId}/${ref.standard}:${ref.contract}/${ref.tokenId}@${owner}`,
  batch: (asks, sources, askedAt) => readerOf(sources).nftAvatars(asks, askedAt),
  maxBatchSize: MAX_ENS_BATCH,
});
