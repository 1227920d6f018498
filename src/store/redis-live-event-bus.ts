import type { RedisTarget } from '../config/redis-target.js';
import {
  EVENT_CLAIM_MS,
  type LiveEventBus,
  type LoggedEvent,
  parseBusEvent,
  type ReplayBounds,
} from './live-event-bus.js';
import { connectRedis } from './redis-client.js';
import { runScript, script } from './redis-scripts.js';
import { formatPosition, isAfter, parsePosition } from './replay-position.js';

/**
 * KEYS: [the replay stream]. ARGV: [the event's JSON (an object), maxEvents, windowMs, channel]. Appends the event
 * (trimmed to maxEvents, roughly, and to the window), then PUBLISHes it with the entry's id as its `position`; one
 * script, so every publisher's events reach the channel in the stream's order, and an `id:` a client saw last is the
 * latest it has. Returns the entry's id.
 */
const appendAndPublishScript = script(
  'liveAppendAndPublish',
  `
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', 'event', ARGV[1])
local oldest = tonumber(string.match(id, '^(%d+)')) - tonumber(ARGV[3])
if oldest > 0 then redis.call('XTRIM', KEYS[1], 'MINID', '~', string.format('%.0f-0', oldest)) end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PUBLISH', ARGV[4], '{"position":"' .. id .. '",' .. string.sub(ARGV[1], 2))
return id
`,
);

/**
 * The bus of instances sharing one Redis or Redis Cluster: an event is claimed by its id (`SET NX PX`, one key per
 * command, so any slot of a cluster), and only the instance whose claim succeeded appends it to the replay stream
 * (`XADD … MAXLEN ~ maxEvents`, trimmed to the window by `XTRIM MINID`, the key expiring a window after the last
 * event) and PUBLISHes it with the entry's id as its position, in one script; every instance's subscriber connection
 * hears it.
 * Classic pub/sub reaches every node of a cluster, so one SUBSCRIBE on any node hears every PUBLISH. A message missed
 * while an instance's subscriber is reconnecting is not heard live; it stays in the stream for a client resuming.
 * @example const bus = await redisEventBus({ target: { kind: 'single', url }, prefix: 'api:', replay: { windowMs: 60_000, maxEvents: 10_000, maxBytes: 8 << 20 } })
 */
export async function redisEventBus(p: {
  target: RedisTarget;
  /** The store's key prefix (REDIS_KEY_PREFIX): instances sharing a store share its bus. */
  prefix: string;
  replay: ReplayBounds;
  onError?: (err: Error) => void;
  now?: () => number;
}): Promise<LiveEventBus> {
  const now = p.now ?? Date.now;
  const channel = `${p.prefix}live:events`;
  const replayKey = `${p.prefix}live:replay`;
  const claimKey = (id: string) => `${p.prefix}live:claimed:${id}`;
  const commands = await connectRedis(p.target, { onError: p.onError });
  const subscriber = await connectRedis(p.target, { onError: p.onError }).catch((err) => {
    commands.disconnect();
    throw err;
  });
  const listeners = new Set<(event: LoggedEvent) => void>();
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
        if (claimed !== 'OK') continue;
        await runScript(
          commands,
          appendAndPublishScript,
          [replayKey],
          // Its own position (were it a logged event published again) is the stream's to give.
          [JSON.stringify({ ...event, position: undefined }), p.replay.maxEvents, p.replay.windowMs, channel],
        );
      }
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async since(position) {
      const after = parsePosition(position);
      if (!after) return [];
      const oldest = now() - p.replay.windowMs;
      // The newest maxEvents after the position (MAXLEN ~ trims whole nodes, so the stream may hold a few more).
      const entries = await commands.xrevrange(
        replayKey,
        '+',
        `(${formatPosition(after)}`,
        'COUNT',
        p.replay.maxEvents,
      );
      // Newest first: within maxBytes, as the in-process log keeps them.
      const events: LoggedEvent[] = [];
      let bytes = 0;
      for (const [id, fields] of entries) {
        const at = parsePosition(id);
        if (!at || at.ms < oldest || !isAfter(at, after)) continue;
        const message = fields[1] ?? '';
        bytes += Buffer.byteLength(message);
        if (bytes > p.replay.maxBytes) break;
        const event = parseBusEvent(message, id);
        if (event) events.push(event);
      }
      return events.reverse();
    },
    async close() {
      listeners.clear();
      await Promise.allSettled([subscriber.quit(), commands.quit()]);
    },
  };
}
