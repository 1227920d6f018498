import { createHash, randomBytes } from 'node:crypto';

/** Every key starts with this, so a leaked key is recognisable (secret scanners) and a typo is caught before any lookup. */
export const API_KEY_PREFIX = 'sk_live_';

/** 32 random bytes: no guessing, and a plain SHA-256 is then as good as a slow hash. */
const KEY_BYTES = 32;
const API_KEY_PATTERN = /^sk_live_[A-Za-z0-9_-]{43}$/;

/** Characters of the key shown in lists, before the ellipsis. */
const SHOWN_CHARS = 12;

/**
 * A fresh API key: shown to its owner once, then known only by its hash.
 * @example generateApiKey() // 'sk_live_3q2-…' (51 characters)
 */
export function generateApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(KEY_BYTES).toString('base64url')}`;
}

/** Whether a header value can be a key at all; anything else is refused without a store lookup. */
export function looksLikeApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}

/** SHA-256 hex of the key: what the store keeps and looks keys up by. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The start of the key followed by an ellipsis, for lists (docs/api-contract.md#api-key: prefix). */
export function displayPrefix(key: string): string {
  return `${key.slice(0, SHOWN_CHARS)}…`;
}
