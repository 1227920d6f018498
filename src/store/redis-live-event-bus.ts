import type { RedisTarget } from '../config/redis-target.js';
import { type BusEvent, EVENT_CLAIM_MS, type LiveEventBus, parseBusEvent } from './live-event-bus.js';
import { connectRedis } from './redis-client.js';

/**
 * The bus of instances sharing one Redis or Redis Cluster: an event is claimed by its id (`SET NX PX`, one key per
 * command, so any slot of a cluster), and only the instance whose claim succeeded PUBLISHes it; every instance's
 * subscriber connection hears it. Classic pub/sub reaches every node of a cluster, so one SUBSCRIBE on any node hears
 * every PUBLISH. A message missed while an instance's subscriber is reconnecting is not replayed.
 * @example const bus = await redisEventBus({ target: { kind: 'single', url }, prefix: 'api:' })
 */
export async function redisEventBus(p: {
  target: RedisTarget;
  /** The store's key prefix (REDIS_KEY_PREFIX): instances sharing a store share its bus. */
  prefix: string;
  onError?: (err: Error) => void;
}): Promise<LiveEventBus> {
  const channel = `${p.prefix}live:events`;
  const claimKey = (id: string) => `${p.prefix}live:claimed:${id}`;
  const commands = await connectRedis(p.target, { onError: p.onError });
  const subscriber = await connectRedis(p.target, { onError: p.onError }).catch((err) => {
    commands.disconnect();
    throw err;
  });
  const listeners = new Set<(event: BusEvent) => void>();
  subscriber.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    const event = parseBusEvent(message);
    if (event) for (const listener of listeners) listener(event);
  });
  await subscriber.subscribe(channel);
  return {
    kind: 'redis',
    async publish(events) {
      for (const event of events) {
        const claimed = await commands.set(claimKey(event.id), '1', 'PX', EVENT_CLAIM_MS, 'NX');
        if (claimed === 'OK') await commands.publish(channel, JSON.stringify(event));
      }
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      await Promise.allSettled([subscriber.quit(), commands.quit()]);
    },
  };
}
