import type { Tier } from '../route-row.js';
import { componentRef, type HeaderObject, type JsonSchema, type Reference } from './openapi-types.js';

const COUNTED_TIERS: Tier[] = ['light', 'medium', 'heavy', 'auth', 'write'];

/**
 * docs/api-contract.md#rate-limit-headers: sent on every counted response, 429 included; each is a count unless
 * `NOT_COUNTS` says.
 */
const DESCRIPTIONS: Record<string, string> = {
  'X-RateLimit-Limit':
    "Daily limit that binds this call: the tier's own, or the global cap across tiers, whichever has fewer requests left",
  'X-RateLimit-Remaining': 'Requests left today of X-RateLimit-Limit; 0 on a 429 means the daily limit was hit',
  'X-RateLimit-Reset': 'When the daily counters reset (midnight UTC), ISO 8601',
  'X-RateLimit-Tier': 'Tier of this endpoint',
  'X-RateLimit-Tier-Limit':
    "Per-minute limit that binds this call: the tier's own, or the access mode's cap across tiers, whichever has fewer requests left",
  'X-RateLimit-Tier-Remaining':
    'Requests left this minute of X-RateLimit-Tier-Limit; 0 on a 429 means the per-minute limit was hit',
  'X-RateLimit-Global-Used': 'Requests used today across tiers',
  'X-RateLimit-Global-Limit': 'Global daily cap',
};

/** The headers whose value is not a count of requests. */
const NOT_COUNTS: Record<string, JsonSchema> = {
  'X-RateLimit-Reset': { type: 'string', format: 'date-time' },
  'X-RateLimit-Tier': { type: 'string', enum: COUNTED_TIERS },
};

/** Every X-RateLimit-* header: its description and the schema of its value. */
export const RATE_LIMIT_HEADERS: Record<string, HeaderObject> = Object.fromEntries(
  Object.entries(DESCRIPTIONS).map(([name, description]) => [
    name,
    { description, schema: NOT_COUNTS[name] ?? { type: 'integer' } },
  ]),
);

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
