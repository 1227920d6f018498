import { masterConnections, type RedisClient } from './redis-client.js';
import type { RedisStore } from './redis-store.js';

/** What the Redis masters keep across a restart, as their CONFIG says. */
export type RedisDurability =
  /** Every master writes an append-only file or RDB snapshots. */
  | { kind: 'persistent' }
  /** These masters (`host:port`) write neither: a restart empties them. */
  | { kind: 'volatile'; masters: string[] }
  /** CONFIG is refused (renamed or not permitted, as on managed Redis): persistence cannot be read. */
  | { kind: 'unknown'; reason: string };

/** Whether one master's CONFIG GET replies say it keeps data: AOF on, or at least one RDB save point. */
const keepsData = (appendonly: string[], save: string[]): boolean =>
  appendonly[1] === 'yes' || (save[1] ?? '').trim() !== '';

/**
 * Reads `CONFIG GET appendonly` and `CONFIG GET save` on every master (on a cluster, each of them).
 * @example const durability = await readRedisDurability(store.redis) // { kind: 'volatile', masters: ['10.0.0.1:6379'] }
 */
export async function readRedisDurability(redis: RedisClient): Promise<RedisDurability> {
  const volatile: string[] = [];
  for (const master of masterConnections(redis)) {
    let replies: [string[], string[]];
    try {
      replies = (await Promise.all([master.config('GET', 'appendonly'), master.config('GET', 'save')])) as unknown as [
        string[],
        string[],
      ];
    } catch (err) {
      return { kind: 'unknown', reason: err instanceof Error ? err.message : String(err) };
    }
    if (!keepsData(...replies)) volatile.push(`${master.options.host}:${master.options.port}`);
  }
  return volatile.length === 0 ? { kind: 'persistent' } : { kind: 'volatile', masters: volatile };
}

/** The store's Redis keeps nothing across a restart and REDIS_VOLATILE_OK does not accept that: the line `npm start` prints. */
export class VolatileRedisError extends Error {
  override name = 'VolatileRedisError';
  constructor(readonly masters: string[]) {
    super(
      `Redis ${masters.join(', ')} keeps nothing across a restart (appendonly no, save ""), so API keys, credits and ` +
        'spent payment nonces would be lost with it: turn on appendonly (appendfsync everysec) or RDB snapshots, or ' +
        'set REDIS_VOLATILE_OK=true to accept that (docs/operators.md#redis-persistence)',
    );
  }
}

/**
 * Refuses a Redis that keeps nothing across a restart unless `volatileOk`; one whose persistence cannot be read
 * (CONFIG refused) is told to `onUnknown` and accepted.
 * @example assertRedisDurable(await readRedisDurability(redis), { volatileOk: false, onUnknown: (m) => logger.warn(m) })
 */
export function assertRedisDurable(
  durability: RedisDurability,
  p: { volatileOk: boolean; onUnknown: (message: string) => void },
): void {
  if (p.volatileOk) return;
  if (durability.kind === 'volatile') throw new VolatileRedisError(durability.masters);
  if (durability.kind === 'unknown') {
    p.onUnknown(
      `Redis persistence could not be read (CONFIG GET: ${durability.reason}); starting on the assumption that it keeps ` +
        'data (managed Redis): check that it does (docs/operators.md#redis-persistence)',
    );
  }
}

/**
 * Keeps `store.durability` current: read now, again whenever the connection is ready after a reconnect (a failover may
 * promote a replica configured otherwise), and every `intervalMs` (`CONFIG SET appendonly no` needs no restart); each
 * change is told to `onChange`. Nothing is read while the connection is down (the last reading stands). Stops when the
 * store closes.
 * @example await watchRedisDurability(store, { intervalMs: 60_000, onChange: (d) => logger.warn(d, 'durability') })
 */
export async function watchRedisDurability(
  store: RedisStore,
  p: { intervalMs: number; onChange?: (now: RedisDurability, before: RedisDurability['kind']) => void },
): Promise<RedisDurability> {
  const read = async (): Promise<RedisDurability> => {
    const now = await readRedisDurability(store.redis);
    const before = store.durability;
    store.durability = now.kind;
    if (now.kind !== before) p.onChange?.(now, before);
    return now;
  };
  const reread = () => {
    if (store.redis.status === 'ready') read().catch(() => undefined);
  };
  const first = await read();
  const timer = setInterval(reread, p.intervalMs);
  timer.unref();
  store.redis.on('ready', reread);
  store.onClose(() => {
    clearInterval(timer);
    store.redis.off('ready', reread);
  });
  return first;
}
