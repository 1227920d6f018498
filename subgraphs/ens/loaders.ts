import type { Address } from 'viem';
import { MAX_ENS_BATCH } from '../../src/arguments/ens-limits.js';
import { serviceUnavailable } from '../../src/errors/api-error.js';
import type { EnsProfileRecord } from '../../src/sources/ens/ens-chain-reader.js';
import type { EnsPrimaryNameRecord, EnsReader } from '../../src/sources/ens/ens-reader.js';
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
  batch: (names, sources) => readerOf(sources).addresses(names),
  maxBatchSize: MAX_ENS_BATCH,
});

/**
 * Forward-checked primary names of addresses (Ethereum's, else Base's), one batch per chain per request.
 * @example await ensPrimaryNameLoader.of(ctx).load('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
 */
export const ensPrimaryNameLoader = defineLoader<Address, EnsPrimaryNameRecord | null, Sources>({
  name: 'ensPrimaryName',
  batch: (addresses, sources) => readerOf(sources).primaryNames(addresses),
  maxBatchSize: MAX_ENS_BATCH,
});

/**
 * Full profiles: every profile asked in one request is ONE multicall `eth_call`.
 * @example await ensProfileLoader.of(ctx).load('alice.eth')
 */
export const ensProfileLoader = defineLoader<string, EnsProfileRecord | null, Sources>({
  name: 'ensProfile',
  batch: (names, sources) => readerOf(sources).profiles(names),
  maxBatchSize: MAX_ENS_BATCH,
});

/**
 * Avatar text records, one batch per request.
 * @example await ensAvatarRecordLoader.of(ctx).load('alice.eth')
 */
export const ensAvatarRecordLoader = defineLoader<string, string | null, Sources>({
  name: 'ensAvatarRecord',
  batch: (names, sources) => readerOf(sources).texts(names, 'avatar'),
  maxBatchSize: MAX_ENS_BATCH,
});
