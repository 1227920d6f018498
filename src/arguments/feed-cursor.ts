import { createHash } from 'node:crypto';
import { z } from 'zod';

/** `<base64url of the upstream cursor>.<16 hex check digits>`: what GET /api/farcaster/feed hands out. */
export const FEED_CURSOR_PATTERN = /^[A-Za-z0-9_-]{1,1024}\.[0-9a-f]{16}$/;

const checkDigits = (upstream: string): string =>
  createHash('sha256').update(`farcaster-feed:${upstream}`).digest('hex').slice(0, 16);

/**
 * Wraps the upstream's cursor so that a cursor we never gave is refused here (400), not sent upstream, where
 * Neynar would refuse it and our caller would see a 503. The check digits catch garbage, not forgery.
 * @example decodeFeedCursor(encodeFeedCursor('eyJ0cmVuZGluZyI6MTB9')) // 'eyJ0cmVuZGluZyI6MTB9'
 */
export function encodeFeedCursor(upstream: string): string {
  return `${Buffer.from(upstream, 'utf8').toString('base64url')}.${checkDigits(upstream)}`;
}

/** The upstream cursor inside one of ours; undefined when the cursor is not one we gave. */
export function decodeFeedCursor(cursor: string): string | undefined {
  if (!FEED_CURSOR_PATTERN.test(cursor)) return undefined;
  const [body, check] = cursor.split('.') as [string, string];
  const upstream = Buffer.from(body, 'base64url').toString('utf8');
  return upstream !== '' && checkDigits(upstream) === check ? upstream : undefined;
}

/** A feed cursor as a caller sends it back: only one this service gave passes. */
export const feedCursor = z
  .string()
  .regex(FEED_CURSOR_PATTERN, 'must be a cursor a previous page gave')
  .refine((v) => decodeFeedCursor(v) !== undefined, 'must be a cursor a previous page gave')
  .describe("the previous page's cursor");

/**
 * The feed's `cursor` parameter: absent (or null on GraphQL) for the first page, else a {@link feedCursor}.
 * @example optionalFeedCursor.parse(undefined) // undefined
 */
export const optionalFeedCursor = feedCursor.optional();
