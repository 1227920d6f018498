import { resolve } from 'node:path';
import { z } from 'zod';
import { invalidConfiguration } from './config-error.js';
import { type ConfigArea, flagSchema, optional, type SettingsOf, withDefault } from './config-variable.js';
import { type RedisTarget, redisTarget } from './redis-target.js';

/** Where keys, credits, nonces, sessions and the webhook outbox live. */
export const STORE_AREA = {
  title: 'Store',
  about: 'A SQLite file under DATA_DIR, or Redis shared by several instances when REDIS_URL is set',
  variables: {
    DATA_DIR: withDefault('./data', z.string(), 'where the embedded SQLite store (`store.sqlite`, WAL) lives'),
    REDIS_URL: optional(
      z
        .string()
        .trim()
        .refine((v) => /^rediss?\+cluster:\/\//.test(v) || URL.canParse(v), 'must be a URL'),
      'Redis as the store, shared by several instances: `redis://…`, or `redis+cluster://host:port,host:port` for a Redis Cluster',
      { secret: true },
    ),
    REDIS_CLUSTER_NODES: optional(
      z.string().trim(),
      'seed nodes of a Redis Cluster, comma-separated `host:port` ([operators](operators.md#redis-cluster))',
    ),
    REDIS_VOLATILE_OK: withDefault(
      'false',
      flagSchema,
      '`true`: start on a Redis that keeps nothing across a restart, else refused ([operators](operators.md#redis-persistence))',
    ),
    REDIS_DURABILITY_CHECK_MS: withDefault(
      '60000',
      z.coerce.number().int().min(100).max(86_400_000),
      "how often Redis's persistence is read again after start (it is also read on every reconnect); a change is logged, shown in `/api/health` and the `store_durability` metric",
    ),
    REDIS_WAIT_REPLICAS: withDefault(
      '0',
      z.coerce.number().int().min(0).max(16),
      'replicas that must hold a Redis write (count, debit, spent nonce) before it is answered (`WAIT`); `0`: none',
    ),
    REDIS_KEY_PREFIX: withDefault(
      'cia:',
      z
        .string()
        .regex(/^[A-Za-z0-9:_.-]{1,128}$/, 'must be 1 to 128 letters, digits, colons, dots, dashes or underscores'),
      'the start of every key the Redis store writes: several deployments (or a test run) can share one Redis',
    ),
    STORE_TIMEOUT_MS: withDefault(
      '500',
      z.coerce.number().int().min(10).max(60_000),
      'a store call not answered by then (Redis hung or down, SQLite locked elsewhere) is a 503 `SERVICE_UNAVAILABLE`; `/api/health` is 503 meanwhile',
    ),
  },
} as const satisfies ConfigArea;

export interface StoreConfig {
  dataDir: string;
  /** REDIS_URL / REDIS_CLUSTER_NODES: one Redis or a Redis Cluster; undefined: the SQLite store. */
  redis: RedisTarget | undefined;
  /** REDIS_VOLATILE_OK: start on a Redis that persists nothing. */
  redisVolatileOk: boolean;
  /** REDIS_DURABILITY_CHECK_MS: how often Redis's persistence is read again (and on every reconnect). */
  redisDurabilityCheckMs: number;
  /** REDIS_WAIT_REPLICAS: replicas that must hold a write before it is answered; 0: none. */
  redisWaitReplicas: number;
  /** REDIS_KEY_PREFIX: the start of every key the Redis store writes. */
  redisKeyPrefix: string;
  /** How long one store call may take before the request is answered 503 SERVICE_UNAVAILABLE. */
  storeTimeoutMs: number;
}

export function storeConfig(e: SettingsOf<typeof STORE_AREA.variables>): StoreConfig {
  const redis = redisTarget({ url: e.REDIS_URL, clusterNodes: e.REDIS_CLUSTER_NODES });
  if (redis && 'error' in redis) throw invalidConfiguration([redis.error]);
  return {
    dataDir: resolve(e.DATA_DIR),
    redis,
    redisVolatileOk: e.REDIS_VOLATILE_OK,
    redisDurabilityCheckMs: e.REDIS_DURABILITY_CHECK_MS,
    redisWaitReplicas: e.REDIS_WAIT_REPLICAS,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    storeTimeoutMs: e.STORE_TIMEOUT_MS,
  };
}
