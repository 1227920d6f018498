import type { QuotaCounter } from './store.js';
import { StoreArgumentError } from './store-errors.js';

/** The fixed window `now` falls in: its index since the epoch and when it ends. */
export interface QuotaWindow {
  index: number;
  resetsAt: number;
}

/**
 * Windows are aligned to the epoch, so a 86_400_000 ms window resets at midnight UTC.
 * @example quotaWindow({ key: 'ip:1.2.3.4', limit: 30, windowMs: 60_000 }, 90_000) // { index: 1, resetsAt: 120_000 }
 */
export function quotaWindow(counter: QuotaCounter, now: number): QuotaWindow {
  if (!Number.isSafeInteger(counter.windowMs) || counter.windowMs <= 0) {
    throw new StoreArgumentError(`windowMs must be a positive integer, got ${counter.windowMs}`);
  }
  const index = Math.floor(now / counter.windowMs);
  return { index, resetsAt: (index + 1) * counter.windowMs };
}
