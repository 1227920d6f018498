import { StoreArgumentError } from './store-errors.js';

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
