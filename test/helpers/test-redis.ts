import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** This run's Redis key namespace (test/global-setup.ts), removed when the run ends. */
    redisRunPrefix: string;
  }
}

/**
 * The Redis the tests write to: TEST_REDIS_URL, by default database 15 of the local Redis, never a developer's
 * database 0. Every key goes under this run's prefix (testKeyPrefix), and the run removes them when it ends.
 */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/15';

/**
 * A fresh key namespace inside this run's: give it to one store (or to several, to make them instances sharing one).
 * @example startTestServer({ REDIS_URL: TEST_REDIS_URL }, { storePrefix: testKeyPrefix('races') })
 */
export function testKeyPrefix(label: string): string {
  return `${inject('redisRunPrefix')}${label}:${randomUUID()}:`;
}

/**
 * Deletes every key under `prefix` (SCAN, not KEYS, so a large shared Redis is not blocked).
 * @example await deleteKeysUnder(TEST_REDIS_URL, prefix)
 */
export async function deleteKeysUnder(url: string, prefix: string): Promise<number> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  let deleted = 0;
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}
