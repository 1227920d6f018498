import type { RedisTarget } from '../config/redis-target.js';
import { inProcessEventBus, type LiveEventBus, type ReplayBounds } from './live-event-bus.js';
import { redisEventBus } from './redis-live-event-bus.js';

/**
 * The live event bus beside the store: Redis pub/sub where the store is Redis (instances share it), else in process.
 * @example const bus = await openLiveEventBus({ redis: config.redis, prefix: config.redisKeyPrefix, replay: config.live.replay })
 */
export function openLiveEventBus(p: {
  redis: RedisTarget | undefined;
  prefix: string;
  replay: ReplayBounds;
  onError?: (err: Error) => void;
}): Promise<LiveEventBus> {
  if (!p.redis) return Promise.resolve(inProcessEventBus(p.replay));
  return redisEventBus({ target: p.redis, prefix: p.prefix, replay: p.replay, onError: p.onError });
}
