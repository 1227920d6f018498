import type { Tier } from '../route-row.js';
import { componentRef, type HeaderObject, type Reference } from './openapi-types.js';

const COUNTED_TIERS: Tier[] = ['light', 'medium', 'heavy', 'auth', 'write'];

/** SPEC "Response headers": sent on every counted response, 429 included. */
export const RATE_LIMIT_HEADERS: Record<string, HeaderObject> = {
  'X-RateLimit-Limit': {
    description:
      "Daily limit that binds this call: the tier's own, or the global cap across tiers, whichever has fewer requests left",
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left today of X-RateLimit-Limit; 0 on a 429 means the daily limit was hit',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': {
    description: 'When the daily counters reset (midnight UTC), ISO 8601',
    schema: { type: 'string', format: 'date-time' },
  },
  'X-RateLimit-Tier': { description: 'Tier of this endpoint', schema: { type: 'string', enum: COUNTED_TIERS } },
  'X-RateLimit-Tier-Limit': {
    description:
      "Per-minute limit that binds this call: the tier's own, or the access mode's cap across tiers, whichever has fewer requests left",
    schema: { type: 'integer' },
  },
  'X-RateLimit-Tier-Remaining': {
    description: 'Requests left this minute of X-RateLimit-Tier-Limit; 0 on a 429 means the per-minute limit was hit',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Global-Used': { description: 'Requests used today across tiers', schema: { type: 'integer' } },
  'X-RateLimit-Global-Limit': { description: 'Global daily cap', schema: { type: 'integer' } },
};

/** The header of a 429 answer; the same seconds as the body's `retryAfter`. */
export const RETRY_AFTER_HEADER: HeaderObject = {
  description: 'Seconds to wait before retrying',
  required: true,
  schema: { type: 'integer', minimum: 0 },
};

/**
 * References to every X-RateLimit-* header, for a response's `headers`.
 * @example { description: 'OK', headers: rateLimitHeaderRefs() }
 */
export function rateLimitHeaderRefs(): Record<string, Reference> {
  return Object.fromEntries(Object.keys(RATE_LIMIT_HEADERS).map((name) => [name, componentRef('headers', name)]));
}
