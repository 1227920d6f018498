import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RedisTarget } from '../config/redis-target.js';
import type { StoreCallTallies } from '../observability/store-call-tallies.js';
import { assertRedisDurable, type RedisDurability, watchRedisDurability } from './redis-durability.js';
import { isRedisOutage, openRedisStore } from './redis-store.js';
import { isSqliteOutage, openSqliteStore } from './sqlite-store.js';
import type { Store } from './store.js';
import { withStoreBudget } from './store-budget.js';

/** Where the store lives: Redis when `redis` (or `redisUrl`) is set, else SQLite at `<dataDir>/store.sqlite`. */
export interface OpenStoreParams {
  dataDir: string;
  /** One Redis or a Redis Cluster (config.redis). */
  redis?: RedisTarget;
  /** One Redis, by URL. */
  redisUrl?: string;
  /** Namespace of every Redis key (default `cia:`); ignored by SQLite, whose file is its namespace. */
  prefix?: string;
  /** Told about Redis connection errors (e.g. to log them); ignored by SQLite. */
  onError?: (err: Error) => void;
  /** STORE_TIMEOUT_MS: a call not answered within it (Redis), or kept waiting that long for a lock (SQLite), is a 503. */
  timeoutMs?: number;
  /** Each call's latency and outcome, for /metrics. */
  calls?: StoreCallTallies;
  /**
   * REDIS_VOLATILE_OK: open a Redis that keeps nothing across a restart; without it such a Redis is refused
   * (VolatileRedisError). Ignored by SQLite, which is a file.
   */
  volatileOk?: boolean;
  /** REDIS_WAIT_REPLICAS: a Redis write is answered once this many replicas hold it (within `timeoutMs`). */
  waitReplicas?: number;
  /** Told (e.g. to log a warning) when Redis's persistence cannot be read (CONFIG refused); the store opens anyway. */
  onDurabilityUnknown?: (message: string) => void;
  /** REDIS_DURABILITY_CHECK_MS: how often Redis's persistence is read again (also on every reconnect); default 60 s. */
  durabilityCheckMs?: number;
  /** Told each time Redis's persistence, read again after start, differs from the last reading. */
  onDurabilityChange?: (now: RedisDurability) => void;
}

/**
 * Opens the configured store; rejects if Redis is configured but unreachable, or keeps nothing across a restart
 * (unless `volatileOk`). Once open, a store that fails or does
 * not answer within `timeoutMs` makes the call a 503 SERVICE_UNAVAILABLE (src/store/store-budget.ts).
 * @example const store = await openStore({ dataDir: config.dataDir, redis: config.redis, timeoutMs: 500 })
 */
export async function openStore(params: OpenStoreParams): Promise<Store> {
  const target: RedisTarget | undefined =
    params.redis ?? (params.redisUrl ? { kind: 'single', url: params.redisUrl } : undefined);
  if (target) {
    const redis = await openRedisStore({
      target,
      prefix: params.prefix,
      onError: params.onError,
      // A backstop that frees commands a hung Redis never answers; the budget itself is the deadline below, which
      // (unlike a bare timer) lets a reply that arrived during a busy event loop win. Long: a command it frees may
      // still run later, and its count is then no longer undone (store-budget.ts).
      commandTimeoutMs: params.timeoutMs === undefined ? undefined : Math.max(60_000, params.timeoutMs * 10),
      ...(params.waitReplicas
        ? { waitReplicas: { replicas: params.waitReplicas, timeoutMs: params.timeoutMs ?? 500 } }
        : {}),
    });
    try {
      let started = false;
      const durability = await watchRedisDurability(redis, {
        intervalMs: params.durabilityCheckMs ?? 60_000,
        onChange: (now) => {
          if (started) params.onDurabilityChange?.(now);
        },
      });
      started = true;
      assertRedisDurable(durability, {
        volatileOk: params.volatileOk ?? false,
        onUnknown: params.onDurabilityUnknown ?? (() => {}),
      });
    } catch (err) {
      await redis.close();
      throw err;
    }
    return withStoreBudget(redis, { isOutage: isRedisOutage, deadlineMs: params.timeoutMs, calls: params.calls });
  }
  mkdirSync(params.dataDir, { recursive: true });
  const sqlite = openSqliteStore({ file: join(params.dataDir, 'store.sqlite'), busyTimeoutMs: params.timeoutMs });
  return withStoreBudget(sqlite, { isOutage: isSqliteOutage, calls: params.calls });
}
