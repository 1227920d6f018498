import 'reflect-metadata';
import { z } from 'zod';
import {
  domainsLimit,
  domainsOffset,
  ensCoinsQuery,
  ensNameBatch,
  ensNameBatchQuery,
  ensTextKeysQuery,
} from '../../src/arguments/ens-arguments.js';
import { MAX_ENS_BATCH } from '../../src/arguments/ens-limits.js';
import { ensName } from '../../src/arguments/ens-name.js';
import { evmAddress } from '../../src/arguments/evm-address.js';
import { EnsResolver } from '../../subgraphs/ens/resolvers.js';
import { entriesAsMap, pick, shapes } from '../response-shape.js';
import { rootField } from '../root-field.js';
import type { RouteInput, RouteRow } from '../route-row.js';

/** docs/api-contract.md#prices: ENS resolution $0.01, batch $0.02. */
const ENS_PRICE = '0.01';
const ENS_BATCH_PRICE = '0.02';

const PROFILE_SELECTION =
  'name address avatar contentHash records { key value } expiration registrant controller resolver texts: texts(keys: $keys) @include(if: $withTexts) { key value } addresses: coinAddresses(coins: $coins) @include(if: $withCoins) { coin address }';
/** The profile operations' variables: the name, and the extra text keys and coins asked (none by default). */
const PROFILE_VARIABLES =
  '$name: String!, $keys: [String!]! = [], $withTexts: Boolean! = false, $coins: [String!]! = [], $withCoins: Boolean! = false';

/**
 * The name, and the extra records asked by query (`?texts=…&coins=…`), coins as the coin types they parsed to; what
 * is not asked is not selected, so the body keeps the contract's shape. (A coins value that did not parse stays as sent,
 * so GraphQL can name what is wrong with it.)
 */
const profileVariables = (input: RouteInput) => ({
  name: input.path.name,
  ...(input.query.texts !== undefined ? { keys: input.query.texts, withTexts: true } : {}),
  ...(input.query.coins !== undefined
    ? { coins: Array.isArray(input.query.coins) ? input.query.coins.map(String) : input.query.coins, withCoins: true }
    : {}),
});

/** The extra records a profile route takes by query: text keys (ENSIP-5) and coins (ENSIP-9/11). */
const profileQuery = z.object({ texts: ensTextKeysQuery.optional(), coins: ensCoinsQuery.optional() });

/**
 * GraphQL's lists of {key, value} records → the contract's maps (docs/api-contract.md#ens-resolution-and-profile)
 * (`records.twitter`, `records["com.discord"]`); the records asked by key under `texts` by their ENS keys, the
 * addresses asked under `addresses` by coin name.
 */
const recordsAsMap = shapes(
  entriesAsMap(['records'], 'key', 'value'),
  entriesAsMap(['texts'], 'key', 'value'),
  entriesAsMap(['addresses'], 'coin', 'address'),
);

/** What the profile routes say of the records asked by query. */
const extraRecordsDescription =
  '`?texts=com.twitter,org.example.custom` adds `texts`: any text records by their ENS keys (ENSIP-5), set ones only; `?coins=btc,sol,base` adds `addresses`: the address for each coin (ENSIP-9/11) by coin name, set ones only (coins by name, coin type or eip155:<chain id>). Both are read in the same chain call as the rest of the profile; without them the body has neither. `records` keeps its fixed keys.';

const batchDescription = `At most ${MAX_ENS_BATCH} names (400 above); a repeated name is answered once. All names are resolved together in ONE Multicall3 \`eth_call\` through the ENS Universal Resolver. \`address\` is null for a name that is unregistered, expired or has no address; \`count\` is the number of results, \`resolved\` how many of them resolved.`;

/**
 * docs/api-contract.md#identity: ENS resolution, profile, avatar, reverse, batch, names by address, and the full
 * profile.
 */
export const ensRoutes: RouteRow[] = [
  {
    kind: 'operation',
    id: 'resolveEnsName',
    tool: 'resolve_ens_name',
    method: 'GET',
    path: '/api/ens/resolve/{name}',
    tag: 'ENS',
    summary: 'Address of an ENS name (through the Universal Resolver, CCIP-Read included)',
    description: 'Names are normalised with ENSIP-15. 404 when the name is unregistered, expired or has no address.',
    tier: 'light',
    price: ENS_PRICE,
    params: { path: z.object({ name: ensName }) },
    field: rootField(EnsResolver.prototype.ensResolve),
    errors: [404],
    notFound: 'ENS name does not resolve: unregistered, expired or no address set',
  },
  {
    kind: 'operation',
    id: 'getEnsBatch',
    tool: 'get_ens_batch',
    method: 'GET',
    path: '/api/ens/batch',
    tag: 'ENS',
    summary: `Addresses of up to ${MAX_ENS_BATCH} ENS names in one call`,
    description: batchDescription,
    tier: 'heavy',
    price: ENS_BATCH_PRICE,
    params: { query: z.object({ names: ensNameBatchQuery }) },
    field: rootField(EnsResolver.prototype.ensBatch),
  },
  {
    kind: 'operation',
    id: 'postEnsBulk',
    tool: 'post_ens_bulk',
    method: 'POST',
    path: '/api/ens/bulk',
    tag: 'ENS',
    summary: `Addresses of up to ${MAX_ENS_BATCH} ENS names, given as a JSON list`,
    description: batchDescription,
    tier: 'heavy',
    price: ENS_BATCH_PRICE,
    params: { body: z.object({ names: ensNameBatch }).meta({ example: { names: ['alice.eth', 'bob.eth'] } }) },
    field: rootField(EnsResolver.prototype.ensBatch),
    shape: pick('results'),
  },
  {
    kind: 'operation',
    id: 'getEnsAvatar',
    tool: 'get_ens_avatar',
    method: 'GET',
    path: '/api/ens/avatar/{name}',
    tag: 'ENS',
    summary: 'Avatar of an ENS name as a loadable link (ENSIP-12)',
    description:
      'https records are returned as https; ipfs://, ipns:// and ar:// through the public gateways ipfs.io and arweave.net; NFT avatars (eip155:…) through ENS’s metadata service; data: images as they are. The service never fetches the avatar. 404 when no avatar is set or the record is not a supported URI.',
    tier: 'medium',
    price: ENS_PRICE,
    params: { path: z.object({ name: ensName }) },
    field: rootField(EnsResolver.prototype.ensAvatar),
    errors: [404],
    notFound: 'no avatar for this ENS name',
  },
  {
    kind: 'operation',
    id: 'getEnsPrimaryName',
    tool: 'get_ens_primary_name',
    method: 'GET',
    path: '/api/ens/reverse/{address}',
    tag: 'ENS',
    summary: 'Primary ENS name of an address, forward-checked',
    description:
      'The name set as primary only when it resolves back to the same address: the Ethereum primary name (ENSIP-19, addr.reverse) when there is one, else the Base one (Basenames, 80002105.reverse on Base, a name under base.eth); 404 otherwise.',
    tier: 'medium',
    price: ENS_PRICE,
    params: { path: z.object({ address: evmAddress }) },
    field: rootField(EnsResolver.prototype.ensReverse),
    shape: pick('name'),
    errors: [404],
    notFound: 'no primary ENS name for this address',
  },
  {
    kind: 'operation',
    id: 'getEnsDomains',
    tool: 'get_ens_domains',
    method: 'GET',
    path: '/api/ens/domains/{address}',
    tag: 'ENS',
    summary: 'ENS names an address holds as registrant or controller',
    description:
      'Sorted by name; expired names are left out. Ethereum names from the ENS subgraph when ENS_SUBGRAPH_URL is set (up to 1000 names), else from the embedded chain’s registrar events (second-level .eth names); with the embedded Base chain, its Base names (under base.eth) from its registrar events, merged into the same list and pages.',
    tier: 'medium',
    price: ENS_PRICE,
    params: {
      path: z.object({ address: evmAddress }),
      query: z.object({ limit: domainsLimit, offset: domainsOffset }),
    },
    field: rootField(EnsResolver.prototype.ensDomains),
  },
  {
    kind: 'operation',
    id: 'getEnsRecords',
    tool: 'get_ens_records',
    method: 'GET',
    path: '/api/ens/records/{name}',
    tag: 'ENS',
    summary: 'Every record an ENS name has: text keys, coin addresses and content hash, with their values',
    description:
      'The keys come from the ENS subgraph when ENS_SUBGRAPH_URL is set (its resolver’s texts, coinTypes and contentHash), else from the embedded chain’s resolver events (TextChanged, AddressChanged, ContenthashChanged; a record set a block ago is listed), and the values from one Universal Resolver read of them all. `texts` maps ENS keys (ENSIP-5, avatar as its raw record) to values, `addresses` coin names (ENSIP-9/11, eth included) to addresses; only set records, at most 50 text keys and 20 coins. Subnames this service’s CCIP gateway holds off chain list none. 404 when the name is unregistered or expired.',
    tier: 'medium',
    price: ENS_PRICE,
    params: { path: z.object({ name: ensName }) },
    field: rootField(EnsResolver.prototype.ensRecords),
    shape: shapes(entriesAsMap(['texts'], 'key', 'value'), entriesAsMap(['addresses'], 'coin', 'address')),
    errors: [404],
    notFound: 'ENS name is unregistered or expired',
  },
  {
    kind: 'operation',
    id: 'getEnsProfile',
    tool: 'get_ens_profile',
    method: 'GET',
    path: '/api/ens/{name}',
    tag: 'ENS',
    summary: 'ENS profile: address, avatar, content hash, text records, registrant, controller, expiry, resolver',
    description: `Read in one chain call (Universal Resolver multicall plus registry and registrar). registrant is the holder of the .eth registrar token, controller the registry owner. ${extraRecordsDescription} 404 when the name is unregistered or expired.`,
    tier: 'medium',
    price: ENS_PRICE,
    params: { path: z.object({ name: ensName }), query: profileQuery },
    field: rootField(EnsResolver.prototype.ensProfile),
    operation: `query getEnsProfile(${PROFILE_VARIABLES}) { ensProfile(name: $name) { ${PROFILE_SELECTION} } }`,
    variables: profileVariables,
    shape: recordsAsMap,
    errors: [404],
    notFound: 'ENS name is unregistered or expired',
  },
  {
    kind: 'operation',
    id: 'getFullProfile',
    tool: 'get_full_profile',
    method: 'GET',
    path: '/api/profile/full/{name}',
    tag: 'Identity',
    summary:
      'Aggregated profile: ENS profile and the wallet it resolves to, gathered by one GraphQL operation across subgraphs',
    description: `One federated operation: the ENS profile, then through the \`Wallet\` entity (key: address) what the other subgraphs know of the wallet. ${extraRecordsDescription} 404 when the name is unregistered or expired.`,
    tier: 'heavy',
    price: ENS_BATCH_PRICE,
    params: { path: z.object({ name: ensName }), query: profileQuery },
    field: rootField(EnsResolver.prototype.ensProfile),
    variables: profileVariables,
    operation: `query getFullProfile(${PROFILE_VARIABLES}) { ensProfile(name: $name) { ${PROFILE_SELECTION} wallet { address primaryName balance { balance balanceUsd tokens { symbol balance balanceUsd } } farcasterUser { fid username displayName pfp followers following recentCasts(limit: 5) { hash text timestamp } } } } }`,
    shape: recordsAsMap,
    errors: [404],
    notFound: 'ENS name is unregistered or expired',
  },
];
