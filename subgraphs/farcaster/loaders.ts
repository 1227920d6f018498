import type { FarcasterProfile } from '../../src/sources/farcaster/farcaster-records.js';
import type { FarcasterSources } from '../../src/sources/farcaster/farcaster-sources.js';
import { NEYNAR_LIMITS } from '../../src/sources/farcaster/neynar-client.js';
import type { Sources } from '../../src/sources/sources.js';
import { defineLoader } from '../shared/define-loader.js';

/**
 * Farcaster users by FID: every FID asked in one request becomes ONE Neynar user/bulk call (up to 100).
 * Users a list reply already carried are primed into it and cost nothing.
 * @example await farcasterUserLoader.of(ctx).loadMany([3, 2, 194])
 */
export const farcasterUserLoader = defineLoader<number, FarcasterProfile | null, Sources>({
  name: 'farcasterUser',
  batch: async (fids, sources) => {
    const users = await farcasterUsersOrError(sources.farcaster, fids);
    return fids.map((fid) => (users instanceof Error ? users : (users.get(fid) ?? null)));
  },
  maxBatchSize: NEYNAR_LIMITS.bulkFids,
});

async function farcasterUsersOrError(
  farcaster: FarcasterSources,
  fids: readonly number[],
): Promise<Map<number, FarcasterProfile> | Error> {
  try {
    return await farcaster.usersByFids(fids);
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

/**
 * The Farcaster user who verified each address (lower-case keys): ONE Neynar user/bulk-by-address call per request.
 * Several users may verify one address; the first Neynar lists is taken.
 * @example await farcasterUserByAddressLoader.of(ctx).load('0xd8da6bf26964af9d7eed9e03e53415d37aa96045')
 */
export const farcasterUserByAddressLoader = defineLoader<string, FarcasterProfile | null, Sources>({
  name: 'farcasterUserByAddress',
  batch: async (addresses, sources) => {
    const users = await sources.farcaster.usersByAddresses(addresses);
    return addresses.map((a) => users.get(a.toLowerCase())?.[0] ?? null);
  },
  maxBatchSize: NEYNAR_LIMITS.bulkAddresses,
});

/**
 * When each FID was registered, for users whose upstream reply did not carry it (the hub fallback, or a Neynar reply
 * without `registered_at`): one hub request per FID, made only when a query selects `registeredAt`, each cached a week.
 * A failed lookup answers null rather than failing the user it belongs to.
 * @example await farcasterRegistrationLoader.of(ctx).load(880001) // '2024-03-18T09:12:07.000Z'
 */
export const farcasterRegistrationLoader = defineLoader<number, string | null, Sources>({
  name: 'farcasterRegistration',
  batch: async (fids, sources) => {
    const times = await sources.farcaster.registrationTimes(fids);
    return fids.map((fid) => times.get(fid) ?? null);
  },
});
