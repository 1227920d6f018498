import { getAddress, isAddress } from 'viem';
import { z } from 'zod';
import { EVM_ADDRESS_PATTERN } from './evm-address.js';
import {
  DEFAULT_RECENT_CASTS,
  DEFAULT_SEARCH_LIMIT,
  MAX_FID,
  MAX_OFFSET,
  MAX_SEARCH_LIMIT,
  MAX_SEARCH_QUERY_LENGTH,
} from './farcaster-limits.js';
import { pageLimit, pageOffset } from './integer-range.js';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from './pagination.js';

/** What a `/api/farcaster/{identifier}` names, once detected. */
export type FarcasterIdentifier =
  | { kind: 'fid'; fid: number }
  | { kind: 'username'; username: string }
  | { kind: 'address'; address: string };

/** fnames (1–16 of a-z, 0-9, '-', not starting with '-') and the ENS names Farcaster accepts as usernames. */
const USERNAME = /^[a-z0-9][a-z0-9-]{0,15}(\.base)?(\.eth)?$/;
const DIGITS = /^\d{1,16}$/;

/** Why an identifier was refused: the message of a 400. */
export class InvalidFarcasterIdentifierError extends Error {
  override name = 'InvalidFarcasterIdentifierError';
}

/**
 * The rule, as the OpenAPI description and docs/api-contract.md#choices-where-the-specification-conflicts-or-is-silent
 * state it.
 */
export const IDENTIFIER_RULE =
  'Detected in this order: `@name` is always a username; digits only are a FID (1 to 2147483647); `0x` and 40 hex digits are a verified Ethereum address (mixed case must be a valid EIP-55 checksum); anything else is a username (an fname of up to 16 letters, digits or dashes, or an ENS name such as `name.eth`), read in any case. A username made only of digits, or named `search` or `feed`, must be written with the `@` prefix.';

/**
 * Detects what an identifier names (see {@link IDENTIFIER_RULE}); throws {@link InvalidFarcasterIdentifierError}.
 * @example parseFarcasterIdentifier('3') // { kind: 'fid', fid: 3 }
 * @example parseFarcasterIdentifier('@3') // { kind: 'username', username: '3' }
 */
export function parseFarcasterIdentifier(raw: string): FarcasterIdentifier {
  const value = raw.trim();
  if (value.startsWith('@')) return { kind: 'username', username: parseUsername(value.slice(1)) };
  if (DIGITS.test(value)) return { kind: 'fid', fid: parseFid(value) };
  if (EVM_ADDRESS_PATTERN.test(value)) {
    const hex = value.slice(2);
    const mixedCase = hex !== hex.toLowerCase() && hex !== hex.toUpperCase();
    if (mixedCase && !isAddress(value))
      throw new InvalidFarcasterIdentifierError('address has an invalid EIP-55 checksum');
    return { kind: 'address', address: getAddress(value) };
  }
  return { kind: 'username', username: parseUsername(value) };
}

function parseUsername(value: string): string {
  const lower = value.toLowerCase();
  if (!USERNAME.test(lower)) {
    throw new InvalidFarcasterIdentifierError(
      'must be a username (1–16 letters, digits or dashes, or a .eth name), a FID or a 0x address',
    );
  }
  return lower;
}

/**
 * A FID from its decimal digits: 1 to {@link MAX_FID}.
 * @example parseFid('194') // 194
 */
export function parseFid(value: string): number {
  const fid = /^\d{1,16}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(fid) || fid < 1 || fid > MAX_FID) {
    throw new InvalidFarcasterIdentifierError(`FID must be an integer from 1 to ${MAX_FID}`);
  }
  return fid;
}

/** The identifier's own error as a zod issue; anything else is a bug and propagates. */
function refusedBy(check: (value: string) => unknown) {
  return (value: string, ctx: z.RefinementCtx) => {
    try {
      check(value);
    } catch (err) {
      if (!(err instanceof InvalidFarcasterIdentifierError)) throw err;
      ctx.addIssue({ code: 'custom', message: err.message });
    }
  };
}

/** A username (or @username), FID or verified 0x address; passed on as written. */
export const farcasterIdentifier = z
  .string()
  .superRefine(refusedBy(parseFarcasterIdentifier))
  .describe('username (or @username), FID, or verified 0x address')
  .meta({ example: 'dwr' });

/** A FID as decimal text (a path) or a number (GraphQL's Int): 1 to MAX_FID. */
export const fid = z.coerce
  .string()
  .superRefine(refusedBy(parseFid))
  .transform(Number)
  .describe(`Farcaster ID, 1 to ${MAX_FID}`)
  .meta({ example: '3' });

/** Text to search Farcaster users for. */
export const userSearchQuery = z
  .string()
  .trim()
  .min(1, `must be 1 to ${MAX_SEARCH_QUERY_LENGTH} characters`)
  .max(MAX_SEARCH_QUERY_LENGTH, `must be 1 to ${MAX_SEARCH_QUERY_LENGTH} characters`)
  .describe('text to search for')
  .meta({ example: 'vitalik' });

/** What a search looks for: users, the only kind. */
export const searchType = z
  .literal('users', { error: 'must be users' })
  .default('users')
  .describe('what to search: users (the only kind)');

/**
 * A page of a user's list (casts, followers) or of the feed: the contract's offset pagination
 * (docs/api-contract.md#pagination), 1 to 100, 20 when absent.
 * @example farcasterListLimit.parse(undefined) // 20
 */
export const farcasterListLimit = pageLimit(MAX_PAGE_LIMIT, DEFAULT_PAGE_LIMIT);

/**
 * Items of a user's list to skip: 0 to MAX_OFFSET (walked through upstream cursors), 0 when absent.
 * @example farcasterListOffset.parse('40') // 40
 */
export const farcasterListOffset = pageOffset(MAX_OFFSET);

/**
 * Users a search answers: 1 to MAX_SEARCH_LIMIT (Neynar's page), DEFAULT_SEARCH_LIMIT when absent.
 * @example farcasterSearchLimit.parse(undefined) // 10
 */
export const farcasterSearchLimit = pageLimit(MAX_SEARCH_LIMIT, DEFAULT_SEARCH_LIMIT);

/**
 * Casts a user shows with it (`recentCasts`): 1 to the contract's page maximum, DEFAULT_RECENT_CASTS when absent.
 * @example recentCastsLimit.parse(undefined) // 5
 */
export const recentCastsLimit = pageLimit(MAX_PAGE_LIMIT, DEFAULT_RECENT_CASTS);
