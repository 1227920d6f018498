import type { ApiKeyRecord, Store } from '../store/store.js';
import { creditsUsedCounter, globalDailyCounter } from './quota-plan.js';

/** One API key with today's calls (its global daily counter) and the credits it spent today. */
export interface KeyUsage {
  key: ApiKeyRecord;
  usageToday: number;
  creditsUsedToday: number;
}

/**
 * Today's calls and spent credits of each key, in one read of the store's counters.
 * @example const [{ usageToday }] = await keyUsage(store, [key], Date.now())
 */
export async function keyUsage(store: Store, keys: ApiKeyRecord[], at: number): Promise<KeyUsage[]> {
  const counters = keys.flatMap((k) => [
    globalDailyCounter(`key:${k.id}`, { daily: k.dailyLimit, perMinute: k.minuteLimit }),
    creditsUsedCounter(k.id),
  ]);
  const { counts } = await store.readQuota({ counters, now: at });
  return keys.map((k, i) => ({ key: k, usageToday: counts[2 * i] ?? 0, creditsUsedToday: counts[2 * i + 1] ?? 0 }));
}
