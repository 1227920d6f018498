import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OwnRedis, startOwnRedis, startRedisServer } from '../helpers/own-redis.js';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const TOKEN = 'durability-metrics-token-0123456789';

/** Resolves once `read()` gives `want`, asking every 50 ms. */
async function until<T>(read: () => Promise<T>, want: T): Promise<void> {
  while ((await read()) !== want) await new Promise((r) => setTimeout(r, 50));
}

/** The store's durability as GET /api/health reports it. */
const healthDurability = async (server: TestServer): Promise<string> =>
  (await (await server.get('/api/health')).json()).storeDurability;

/** The state store_durability marks 1 on /metrics. */
async function metricDurability(server: TestServer): Promise<string | undefined> {
  const families = parsePrometheusText(
    await (await server.get('/metrics', { authorization: `Bearer ${TOKEN}` })).text(),
  );
  return ['persistent', 'volatile', 'unknown'].find(
    (state) => sampleValue(families, 'store_durability', { store: 'redis', state }) === 1,
  );
}

/** A Redis of the test's own that writes an append-only file (into a directory of its own), and a client to it. */
async function persistentRedis(): Promise<{ redis: OwnRedis; client: Redis; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'durability-'));
  const redis = await startOwnRedis(['--appendonly', 'yes', '--dir', dir]);
  return { redis, client: new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0 }), dir };
}

describe('the Redis persistence guard keeps watching after start (docs/operators.md#redis-persistence)', () => {
  it('CONFIG SET appendonly no after start is noticed within REDIS_DURABILITY_CHECK_MS: /api/health and store_durability say volatile', async () => {
    const { redis, client, dir } = await persistentRedis();
    const server = await startTestServer({
      REDIS_URL: redis.url,
      REDIS_VOLATILE_OK: 'false',
      REDIS_DURABILITY_CHECK_MS: '200',
      METRICS_TOKEN: TOKEN,
    });
    try {
      expect(await healthDurability(server)).toBe('persistent');
      expect(await metricDurability(server)).toBe('persistent');
      await client.config('SET', 'appendonly', 'no');
      await until(() => healthDurability(server), 'volatile');
      expect(await metricDurability(server)).toBe('volatile');
      await client.config('SET', 'appendonly', 'yes');
      await until(() => healthDurability(server), 'persistent');
    } finally {
      client.disconnect();
      await server.close();
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('on reconnect', () => {
    let own: Awaited<ReturnType<typeof persistentRedis>>;
    let server: TestServer;
    let replacement: ChildProcess | undefined;
    beforeAll(async () => {
      own = await persistentRedis();
      // An hour between periodic checks: what is noticed here, the reconnect noticed.
      server = await startTestServer({
        REDIS_URL: own.redis.url,
        REDIS_VOLATILE_OK: 'false',
        REDIS_DURABILITY_CHECK_MS: '3600000',
      });
    });
    afterAll(async () => {
      own.client.disconnect();
      await server?.close();
      replacement?.kill('SIGKILL');
      await own.redis.stop();
      rmSync(own.dir, { recursive: true, force: true });
    });

    it('a Redis that comes back without persistence (a restart, a failover to a replica configured otherwise) is read again as it reconnects', async () => {
      expect(await healthDurability(server)).toBe('persistent');
      await own.redis.kill();
      replacement = await startRedisServer(Number(new URL(own.redis.url).port), []);
      await until(() => healthDurability(server).catch(() => 'down'), 'volatile');
    });
  });
});
