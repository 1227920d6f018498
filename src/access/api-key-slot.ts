import type { AccessTallies } from '../observability/access-tallies.js';
import type { Store } from '../store/store.js';
import type { Caller } from './identify-caller.js';
import { tooManyInFlight } from './quota-refusals.js';
import type { CountedTier } from './tiers.js';

/** A slot held longer than this (a crashed instance) frees itself. */
const SLOT_TTL_MS = 60_000;

/**
 * Takes one of an API key's concurrency slots in the store (shared by every instance), or throws the 429 of a key
 * with `max` calls in flight; resolves to the slot's release, which gives it back once (later calls do nothing).
 * @example const release = await holdApiKeySlot({ store, max: 10, now: Date.now }, caller, 'light')
 */
export async function holdApiKeySlot(
  p: { store: Pick<Store, 'acquireSlot' | 'releaseSlot'>; max: number; now: () => number; tallies?: AccessTallies },
  caller: Caller & { apiKey: NonNullable<Caller['apiKey']> },
  tier: CountedTier,
): Promise<() => void> {
  const slotKey = `key:${caller.apiKey.id}`;
  const token = await p.store.acquireSlot({ key: slotKey, max: p.max, ttlMs: SLOT_TTL_MS, now: p.now() });
  if (token === null) {
    p.tallies?.quotaRefused(caller.mode, 'concurrency');
    throw tooManyInFlight(tier, p.max);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    p.store.releaseSlot({ key: slotKey, token }).catch(() => {});
  };
}
