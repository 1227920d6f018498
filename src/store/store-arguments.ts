import { apiKeyOwner, type QuotaCounter } from './store.js';
import { StoreArgumentError } from './store-errors.js';

/** Whose counter it is: its `owner`, else its own key. */
export const counterOwner = (counter: QuotaCounter): string => counter.owner ?? counter.key;

/** The one owner of counters moved together; refuses counters of several owners (they may live on different shards). */
export function oneOwner(counters: readonly QuotaCounter[]): string {
  const owner = counterOwner(counters[0]!);
  for (const counter of counters) {
    if (counterOwner(counter) !== owner) {
      throw new StoreArgumentError(`counters moved together need one owner, got ${owner} and ${counterOwner(counter)}`);
    }
  }
  if (owner === '' || /[{}]/.test(owner)) throw new StoreArgumentError(`a counter owner has no braces, got "${owner}"`);
  return owner;
}

/** Refuses a debit's count that is not its key's (the two change in one atomic step, so they live together). */
export function assertKeyCount(keyId: string, count: QuotaCounter | undefined): void {
  if (count && counterOwner(count) !== apiKeyOwner(keyId)) {
    throw new StoreArgumentError(`a debit's count is owned by ${apiKeyOwner(keyId)}, got ${counterOwner(count)}`);
  }
}

/** Rejects amounts and limits the atomic operations cannot honour (fractions, negatives, NaN). */
export function assertCount(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new StoreArgumentError(`${name} must be an integer >= ${min}, got ${value}`);
  }
}

/** Addresses are case-insensitive identities; the store keeps them lower-cased so lookups never miss. */
export function normalizeAddress(address: string): string {
  return address.toLowerCase();
}
