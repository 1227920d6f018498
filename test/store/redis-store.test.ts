import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { readRedisDurability, VolatileRedisError } from '../../src/store/redis-durability.js';
import { runScript } from '../../src/store/redis-scripts.js';
import { openRedisStore, type RedisStore, redactRedisUrl } from '../../src/store/redis-store.js';
import { startOwnRedis } from '../helpers/own-redis.js';
import { deleteKeysUnder, TEST_REDIS_URL, testKeyPrefix } from '../helpers/test-redis.js';
import { describeStoreContract } from './store-contract.js';

const REDIS_URL = TEST_REDIS_URL;
const T0 = Date.UTC(2025, 2, 14, 12, 0, 0);
/** Every key this file writes starts with this (inside the run's namespace, which the run removes at its end). */
const FILE_PREFIX = testKeyPrefix('store');

let admin: Redis;
let nextPrefix = 0;
const freshPrefix = (): string => `${FILE_PREFIX}${nextPrefix++}:`;

beforeAll(async () => {
  admin = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await admin.connect();
});

afterAll(async () => {
  await deleteKeysUnder(REDIS_URL, FILE_PREFIX);
  await admin.quit();
});

// Two instances = two connections with one prefix, as two API servers behind a load balancer.
describeStoreContract('redis', async () => {
  const prefix = freshPrefix();
  const stores = [await openRedisStore({ url: REDIS_URL, prefix }), await openRedisStore({ url: REDIS_URL, prefix })];
  return { stores, dispose: async () => void (await Promise.all(stores.map((s) => s.close()))) };
});

describe('redis store specifics', () => {
  it('openStore with a Redis URL uses Redis and never shows the password', async () => {
    const store = await openStore({
      dataDir: '/nonexistent',
      redisUrl: REDIS_URL,
      prefix: freshPrefix(),
      volatileOk: true,
    });
    // Durability is the test Redis's own (volatile here, persistent on a developer's AOF Redis).
    expect(store.describe()).toEqual({
      kind: 'redis',
      location: redactRedisUrl(REDIS_URL),
      durability: expect.stringMatching(/^(persistent|volatile|unknown)$/),
    });
    await store.close();
    expect(redactRedisUrl('redis://default:s3cret@cache.internal:6380/2')).toBe(
      'redis://default@cache.internal:6380/2',
    );
    expect(redactRedisUrl('rediss://:s3cret@cache.internal:6380')).toBe('rediss://cache.internal:6380');
  });

  it('a Redis that keeps nothing across a restart is refused unless REDIS_VOLATILE_OK says it is accepted', async () => {
    const volatile = await startOwnRedis();
    try {
      const refused = openStore({ dataDir: '/nonexistent', redisUrl: volatile.url });
      await expect(refused).rejects.toBeInstanceOf(VolatileRedisError);
      await expect(refused).rejects.toThrow(/keeps nothing across a restart .* set REDIS_VOLATILE_OK=true/);
      const accepted = await openStore({ dataDir: '/nonexistent', redisUrl: volatile.url, volatileOk: true });
      await accepted.close();
    } finally {
      await volatile.stop();
    }
  });

  it('a Redis with an append-only file, or with RDB snapshots, is accepted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'redis-aof-'));
    const aof = await startOwnRedis(['--dir', dir, '--appendonly', 'yes', '--appendfsync', 'everysec']);
    const rdb = await startOwnRedis(['--dir', dir, '--save', '3600 1']);
    try {
      for (const redis of [aof, rdb]) {
        const store = await openRedisStore({ url: redis.url });
        expect(await readRedisDurability(store.redis)).toEqual({ kind: 'persistent' });
        await store.close();
      }
    } finally {
      await Promise.all([aof.stop(), rdb.stop()]);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a Redis whose CONFIG is renamed away (managed Redis) opens, with a warning that its persistence is unknown', async () => {
    const managed = await startOwnRedis(['--rename-command', 'CONFIG', '']);
    try {
      const warnings: string[] = [];
      const store = await openStore({
        dataDir: '/nonexistent',
        redisUrl: managed.url,
        onDurabilityUnknown: (message) => warnings.push(message),
      });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/persistence could not be read .*unknown command/i);
      await store.close();
    } finally {
      await managed.stop();
    }
  });

  it('an unreachable Redis fails at open', async () => {
    await expect(openRedisStore({ url: 'redis://127.0.0.1:1' })).rejects.toThrow();
  });

  it('all keys live under the prefix, and counters expire after their window', async () => {
    const prefix = freshPrefix();
    const store: RedisStore = await openRedisStore({ url: REDIS_URL, prefix });
    const now = Date.now();
    await store.consumeQuota({ counters: [{ key: 'ip:1', limit: 10, windowMs: 60_000 }], now });
    await store.acquireSlot({ key: 'key:1', max: 10, ttlMs: 30_000, now });
    await store.putNonce({
      nonce: 'n1',
      domain: 'example.com',
      uri: 'https://example.com',
      chainId: 1,
      issuedAt: now,
      expiresAt: now + 300_000,
    });
    await store.markPaymentNonceSpent({ key: 'p1', expiresAt: now + 60_000, now });
    const keys = await admin.keys(`${prefix}*`);
    expect(keys).toHaveLength(4);
    for (const key of keys) {
      const ttl = await admin.pttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(300_000);
    }
    const [counter] = await admin.keys(`${prefix}quota:*`);
    // Lives to the end of the minute, plus a few seconds of grace for clock skew between instances.
    expect(await admin.pttl(counter)).toBeLessThanOrEqual(60_000 - (now % 60_000) + 5_000);
    await store.close();
  });

  it('a script Redis has never seen is loaded on first use', async () => {
    const lua = `return '${randomBytes(8).toString('hex')}'`;
    const script = { name: 'probe', lua, sha: createHash('sha1').update(lua).digest('hex') };
    expect(await runScript(admin, script, [], [])).toBe(lua.slice(8, -1));
  });

  it('a key deleted while being rotated stays deleted', async () => {
    const prefix = freshPrefix();
    const [a, b] = [await openRedisStore({ url: REDIS_URL, prefix }), await openRedisStore({ url: REDIS_URL, prefix })];
    const wallet = `0x${'ab'.repeat(20)}`;
    for (let i = 0; i < 20; i++) {
      const key = await a.createApiKey({
        id: `key-${i}`,
        wallet,
        name: 'n',
        keyHash: `hash-${i}`,
        prefix: 'p…',
        createdAt: T0,
        dailyLimit: 250,
        minuteLimit: 60,
      });
      const [rotated, deleted] = await Promise.all([
        a.rotateApiKey({ id: key.id, wallet, keyHash: `hash-${i}-new`, prefix: 'p…', now: T0 }),
        b.deleteApiKey({ id: key.id, wallet, now: T0 }),
      ]);
      expect(deleted).toBe(true);
      expect(await a.findApiKeyByHash(`hash-${i}`)).toBeNull();
      expect(await a.findApiKeyByHash(`hash-${i}-new`)).toBeNull();
      expect(await a.getApiKey(key.id)).toBeNull();
      expect(rotated === null || rotated.id === key.id).toBe(true);
    }
    expect(await admin.keys(`${prefix}apikey*`)).toEqual([]);
    await Promise.all([a.close(), b.close()]);
  });
});
