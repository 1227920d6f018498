import DataLoader from 'dataloader';
import type { Address } from 'viem';
import { MAX_ENS_BATCH } from '../../src/arguments/ens-limits.js';
import { serviceUnavailable } from '../../src/errors/api-error.js';
import type { EnsProfileRecord } from '../../src/sources/ens/ens-chain-reader.js';
import type { EnsPrimaryNameRecord, EnsReader } from '../../src/sources/ens/ens-reader.js';
import type { Sources } from '../../src/sources/sources.js';
import { type GraphContext, requestLoader } from '../shared/graph-context.js';

function readerOf(sources: Sources): EnsReader {
  const reader = sources.ens.reader;
  if (!reader) throw serviceUnavailable('ENS is unavailable: no Ethereum RPC with ENS contracts is configured');
  return reader;
}

/**
 * Addresses of names: every name asked in one request is ONE batch of viem ENS actions, i.e. one `eth_call`.
 * @example await ensAddressLoader(ctx).loadMany(['alice.eth', 'bob.eth'])
 */
export const ensAddressLoader = (ctx: GraphContext): DataLoader<string, Address | null> =>
  requestLoader(
    ctx,
    'ensAddress',
    (sources) => new DataLoader((names) => readerOf(sources).addresses(names), { maxBatchSize: MAX_ENS_BATCH }),
  );

/** Forward-checked primary names of addresses (Ethereum's, else Base's), one batch per chain per request. */
export const ensPrimaryNameLoader = (ctx: GraphContext): DataLoader<Address, EnsPrimaryNameRecord | null> =>
  requestLoader(
    ctx,
    'ensPrimaryName',
    (sources) =>
      new DataLoader((addresses) => readerOf(sources).primaryNames(addresses), { maxBatchSize: MAX_ENS_BATCH }),
  );

/** Full profiles: every profile asked in one request is ONE multicall `eth_call`. */
export const ensProfileLoader = (ctx: GraphContext): DataLoader<string, EnsProfileRecord | null> =>
  requestLoader(
    ctx,
    'ensProfile',
    (sources) => new DataLoader((names) => readerOf(sources).profiles(names), { maxBatchSize: MAX_ENS_BATCH }),
  );

/** Avatar text records, one batch per request. */
export const ensAvatarRecordLoader = (ctx: GraphContext): DataLoader<string, string | null> =>
  requestLoader(
    ctx,
    'ensAvatarRecord',
    (sources) => new DataLoader((names) => readerOf(sources).texts(names, 'avatar'), { maxBatchSize: MAX_ENS_BATCH }),
  );
