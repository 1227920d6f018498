import { z } from 'zod';
import { coinName, coinTypeOf } from '../sources/ens/coin-addresses.js';
import { argumentList, commaSeparated } from './argument-list.js';
import {
  DEFAULT_DOMAINS_LIMIT,
  MAX_DOMAINS_OFFSET,
  MAX_ENS_BATCH,
  MAX_ENS_COIN_TYPES,
  MAX_ENS_TEXT_KEY_LENGTH,
  MAX_ENS_TEXT_KEYS,
} from './ens-limits.js';
import { ensName } from './ens-name.js';
import { pageLimit, pageOffset } from './integer-range.js';
import { MAX_PAGE_LIMIT } from './pagination.js';

/** How many names one batch lookup takes, and what they are called in its refusal. */
const ENS_NAME_BATCH = { max: MAX_ENS_BATCH, noun: 'ENS names' };

/**
 * 1 to MAX_ENS_BATCH ENS names as a list, each normalised (POST /api/ens/bulk, ensBatch, ensProfiles).
 * @example ensNameBatch.parse(['Alice.eth']) // ['alice.eth']
 */
export const ensNameBatch = argumentList(ensName, ENS_NAME_BATCH).describe(`1 to ${MAX_ENS_BATCH} ENS names`);

/**
 * The same batch as one comma-separated query value (GET /api/ens/batch?names=alice.eth,bob.eth).
 * @example ensNameBatchQuery.parse('alice.eth, Bob.eth') // ['alice.eth', 'bob.eth']
 */
export const ensNameBatchQuery = commaSeparated(ensName, ENS_NAME_BATCH)
  .describe(`comma-separated ENS names, 1 to ${MAX_ENS_BATCH}`)
  .meta({ example: 'alice.eth,bob.eth' });

/**
 * A page of the names an address holds: 1 to 100, DEFAULT_DOMAINS_LIMIT (50) when absent.
 * @example domainsLimit.parse(undefined) // 50
 */
export const domainsLimit = pageLimit(MAX_PAGE_LIMIT, DEFAULT_DOMAINS_LIMIT).describe(
  `names per page, 1 to ${MAX_PAGE_LIMIT} (default ${DEFAULT_DOMAINS_LIMIT})`,
);

/**
 * Names to skip: 0 to MAX_DOMAINS_OFFSET, 0 when absent.
 * @example domainsOffset.parse('50') // 50
 */
export const domainsOffset = pageOffset(MAX_DOMAINS_OFFSET).describe('names to skip (default 0)');

const TEXT_KEY_MESSAGE = `text record keys must be 1 to ${MAX_ENS_TEXT_KEY_LENGTH} characters`;

/**
 * One text record key as ENS writes it (ENSIP-5: `com.twitter`, `avatar`, `org.example.custom`), read as given.
 * @example ensTextKey.parse('com.twitter') // 'com.twitter'
 */
export const ensTextKey = z
  .string()
  .min(1, TEXT_KEY_MESSAGE)
  .max(MAX_ENS_TEXT_KEY_LENGTH, TEXT_KEY_MESSAGE)
  .describe('an ENS text record key (ENSIP-5), e.g. com.twitter');

/** Each entry once, in the order first given. */
const distinct = <T>(list: readonly T[]): T[] => [...new Set(list)];

/**
 * 1 to MAX_ENS_TEXT_KEYS text keys (GraphQL `texts(keys:)`), as REST's `?texts=` takes them; a repeated key is read once.
 * @example ensTextKeys.parse(['url', 'url', 'com.github']) // ['url', 'com.github']
 */
export const ensTextKeys = argumentList(ensTextKey, { max: MAX_ENS_TEXT_KEYS, noun: 'text keys' }).transform(distinct);

/**
 * The same keys as one comma-separated query value (GET /api/ens/{name}?texts=com.twitter,org.example.custom).
 * @example ensTextKeysQuery.parse('com.twitter, org.example.custom') // ['com.twitter', 'org.example.custom']
 */
export const ensTextKeysQuery = commaSeparated(ensTextKey, { max: MAX_ENS_TEXT_KEYS, noun: 'text keys' })
  .transform(distinct)
  .describe(
    `comma-separated ENS text record keys (ENSIP-5), 1 to ${MAX_ENS_TEXT_KEYS}, answered under \`texts\` by their own keys`,
  )
  .meta({ example: 'com.twitter,org.example.custom' });

const COIN_MESSAGE =
  'must be a coin type (decimal, e.g. 0), a coin name (btc, sol, base, op, arb1 …) or an EVM chain as eip155:<chain id>';

/**
 * A coin as a caller names it → its SLIP-44 / ENSIP-11 coin type: `btc`, `0`, `base`, `eip155:8453`, `2147492101`.
 * @example ensCoin.parse('sol') // 501
 */
export const ensCoin = z
  .string()
  .max(32, COIN_MESSAGE)
  .transform((coin, ctx) => {
    const coinType = coinTypeOf(coin);
    if (coinType === undefined) {
      ctx.addIssue({ code: 'custom', message: COIN_MESSAGE });
      return z.NEVER;
    }
    return coinType;
  })
  .describe('a coin: its name (btc, sol, base …), its coin type (decimal) or eip155:<chain id>');

/**
 * 1 to MAX_ENS_COIN_TYPES coins (GraphQL `coinAddresses(coins:)`), as REST's `?coins=` takes them; a coin named twice is read once.
 * @example ensCoins.parse(['btc', '0', 'sol']) // [0, 501]
 */
export const ensCoins = argumentList(ensCoin, { max: MAX_ENS_COIN_TYPES, noun: 'coins' }).transform(distinct);

/**
 * The same coins as one comma-separated query value (GET /api/ens/{name}?coins=btc,sol,base).
 * @example ensCoinsQuery.parse('btc,eip155:8453') // [0, 2147492101]
 */
export const ensCoinsQuery = commaSeparated(ensCoin, { max: MAX_ENS_COIN_TYPES, noun: 'coins' })
  .transform(distinct)
  .describe(
    `comma-separated coins (ENSIP-9/11), 1 to ${MAX_ENS_COIN_TYPES}: names (btc, sol, base …), coin types or eip155:<chain id>; answered under \`addresses\` by coin name`,
  )
  .meta({ example: 'btc,sol,base' });

/**
 * The name the API answers a coin type's address under: the encoder's coin name (`btc`, `base`), else `eip155:<id>`.
 * @example coinLabel(0) // 'btc'
 */
export function coinLabel(coinType: number): string {
  return coinName(coinType) ?? String(coinType);
}
