import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { RedisTarget } from '../config/redis-target.js';

/** One Redis or a Redis Cluster: the store sends the same commands to either (every script stays in one slot). */
export type RedisClient = Redis | Cluster;

/**
 * Connection options of every Redis connection the store opens. While disconnected a command fails at once; it is
 * never queued or resent to run after its caller got an error (a debit or a counted call that ran later would charge
 * for an answer never sent).
 */
function connectionOptions(commandTimeoutMs: number | undefined): RedisOptions {
  return {
    maxRetriesPerRequest: 3,
    connectTimeout: 5_000,
    ...(commandTimeoutMs === undefined ? {} : { commandTimeout: commandTimeoutMs }),
    autoResendUnfulfilledCommands: false,
  };
}

/**
 * Connects to the target; rejects if it cannot be reached (on a cluster: if no seed node gives the cluster's layout).
 * @example const redis = await connectRedis({ kind: 'single', url: 'redis://127.0.0.1:6379' }, { onError: log })
 */
export async function connectRedis(
  target: RedisTarget,
  p: { onError?: (err: Error) => void; commandTimeoutMs?: number } = {},
): Promise<RedisClient> {
  const options = connectionOptions(p.commandTimeoutMs);
  const redis: RedisClient =
    target.kind === 'single'
      ? new Redis(target.url, { ...options, lazyConnect: true, enableAutoPipelining: true, enableOfflineQueue: false })
      : new Cluster(target.nodes, {
          lazyConnect: true,
          // Not auto-pipelined: ioredis follows a MOVED reply (a slot that moved with a failover) for a single
          // command, but hands it to the caller from a pipeline of commands for several slots.
          enableAutoPipelining: false,
          enableOfflineQueue: false,
          // A command whose connection closed under it (its master died) may have run: it fails, never resent to the
          // promoted replica. MOVED, ASK, TRYAGAIN and CLUSTERDOWN replies mean it did not run, and are followed.
          retryDelayOnFailover: 0,
          // Like one Redis, a cluster that was lost entirely is reconnected to for as long as it takes.
          clusterRetryStrategy: (times) => Math.min(100 * times, 2_000),
          redisOptions: {
            ...options,
            ...(target.username === undefined ? {} : { username: target.username }),
            ...(target.password === undefined ? {} : { password: target.password }),
            ...(target.tls ? { tls: {} } : {}),
          },
        });
  redis.on('error', p.onError ?? (() => {}));
  try {
    await redis.connect();
    // Without an offline queue the cluster refuses a command to a node whose connection is still being opened: each
    // node is connected as soon as the cluster knows it (now, and later a replica a failover promoted). Not before the
    // cluster is ready: a node connected while the cluster is still connecting stalls it.
    if (redis instanceof Cluster) {
      redis.on('+node', (node: Redis) => setImmediate(() => connectNode(node)));
      await Promise.all(redis.nodes('all').map(connectNode));
    }
  } catch (err) {
    redis.disconnect();
    throw err;
  }
  return redis;
}

/** Opens a cluster node's connection unless it is open or opening; a node that cannot be reached fails its commands. */
async function connectNode(node: Redis): Promise<void> {
  if (node.status === 'wait') await node.connect().catch(() => {});
}

/** The connections to every master: one for a single Redis, one per master of a cluster (for CONFIG, INFO, SCAN). */
export function masterConnections(redis: RedisClient): Redis[] {
  return redis instanceof Cluster ? redis.nodes('master') : [redis];
}
