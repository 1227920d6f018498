import { z } from 'zod';
import { InvalidFarcasterIdentifierError, parseFarcasterIdentifier, parseFid } from './farcaster-identifier.js';
import { MAX_FID, MAX_SEARCH_QUERY_LENGTH } from './farcaster-limits.js';

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
