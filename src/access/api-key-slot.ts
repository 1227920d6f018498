import type { AccessTallies } from '../observability/access-tallies.js';
import { apiKeyOwner, type QuotaCounter, type QuotaDecision, type Store } from '../store/store.js';
import type { Caller } from './identify-caller.js';
import { tooManyInFlight } from './quota-refusals.js';
import type { CountedTier } from './tiers.js';

/** A slot held longer than this (a crashed instance) frees itself. */
const SLOT_TTL_MS = 60_000;

/** An API key's call admitted in one step: the slot's release, and the quota decision taken with it at `at`. */
export interface KeyCallHeld {
  release: () => void;
  at: number;
  quota: QuotaDecision;
}

/**
 * The common case of an API key's call in one step (one Redis round trip): one of its concurrency slots in the store
 * (shared by every instance), the quota `counters` counted, lastUsedAt stamped; or the 429 of a key with `max` calls
 * in flight. The release gives the slot back once (later calls do nothing).
 * @example const held = await admitApiKeyCall({ store, max: 10, now: Date.now }, caller, 'light', plan.counters)
 */
export async function admitApiKeyCall(
  p: { store: Pick<Store, 'admitKeyCall' | 'releaseSlot'>; max: number; now: () => number; tallies?: AccessTallies },
  caller: Caller & { apiKey: NonNullable<Caller['apiKey']> },
  tier: CountedTier,
  counters: QuotaCounter[],
): Promise<KeyCallHeld> {
  const keyId = caller.apiKey.id;
  const slotKey = apiKeyOwner(keyId);
  const at = p.now();
  const { token, quota } = await p.store.admitKeyCall({
    keyId,
    slotKey,
    max: p.max,
    ttlMs: SLOT_TTL_MS,
    counters,
    now: at,
  });
  if (token === null || quota === null) {
    p.tallies?.quotaRefused(caller.mode, 'concurrency');
    throw tooManyInFlight(tier, p.max);
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    p.store.releaseSlot({ key: slotKey, token }).catch(() => {});
  };
  return { release, at, quota };
}
