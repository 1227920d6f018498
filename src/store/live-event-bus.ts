import { formatPosition, isAfter, parsePosition, positionClock, type ReplayPosition } from './replay-position.js';

/** An event as a detector found it (src/webhooks/event-types.ts DetectedEvent), as it travels between instances. */
export interface BusEvent {
  /** Stable across detections of the same fact, on any instance: the bus publishes each id once. */
  id: string;
  type: string;
  /** When it happened, Unix ms. */
  timestamp: number;
  data: Record<string, unknown>;
  /** Meant for one watcher only (a price threshold's id). */
  onlyWebhook?: string;
}

/** An event as the bus hands it to its listeners: with its place in the replay log (src/store/replay-position.ts). */
export interface LoggedEvent extends BusEvent {
  /** `<ms>-<seq>`: the SSE `id:` a client resumes after. */
  position: string;
}

/**
 * What the bus keeps of what it published, for a client that reconnects (LIVE_REPLAY_SECONDS, LIVE_REPLAY_EVENTS):
 * the events of the last `windowMs`, at most `maxEvents` of them and `maxBytes` of their JSON (the oldest go first).
 */
export interface ReplayBounds {
  windowMs: number;
  maxEvents: number;
  /** The most bytes of events (as JSON) kept, or given to one resuming client; the oldest go first. */
  maxBytes: number;
}

/** How long an event id stays claimed: a detection of the same fact within it is not published again. */
export const EVENT_CLAIM_MS = 10 * 60_000;

/**
 * The live events every instance hears: published once by whichever instance claims an event's id first, heard by
 * every instance sharing the bus (itself included), and kept in a bounded replay log for a client that reconnects
 * (ReplayBounds). In process on the embedded default; Redis pub/sub and a Redis stream with REDIS_URL
 * (src/store/redis-live-event-bus.ts).
 */
export interface LiveEventBus {
  readonly kind: 'in-process' | 'redis';
  /** Publishes the events whose id no instance published within EVENT_CLAIM_MS; resolves once they are sent. */
  publish(events: readonly BusEvent[]): Promise<void>;
  /** Hears every event published from now on, with its position; returns the function that stops hearing. */
  listen(listener: (event: LoggedEvent) => void): () => void;
  /**
   * The events published after `position` that the replay bounds still hold, oldest first; none for a position this
   * bus never gave out (a malformed `Last-Event-ID`).
   */
  since(position: string): Promise<LoggedEvent[]>;
  close(): Promise<void>;
}

/** Event ids one in-process bus remembers as published (the oldest are forgotten first). */
const REMEMBERED_IDS = 50_000;

/**
 * The embedded default's bus: one process, so the listeners are called in turn as an event is published; the replay
 * log is an array of the last published events, trimmed to its bounds as it grows and as it is read.
 * @example const bus = inProcessEventBus({ windowMs: 60_000, maxEvents: 10_000, maxBytes: 8 << 20 }); bus.listen((e) => console.log(e.id))
 */
export function inProcessEventBus(replay: ReplayBounds, now: () => number = Date.now): LiveEventBus {
  const listeners = new Set<(event: LoggedEvent) => void>();
  const claimed = new Map<string, number>();
  // In publication order, so in position order: a resume finds its place by binary search.
  const log: { position: ReplayPosition; event: LoggedEvent; bytes: number }[] = [];
  let loggedBytes = 0;
  const nextPosition = positionClock(now);
  const claim = (id: string): boolean => {
    const at = now();
    const until = claimed.get(id);
    if (until !== undefined && until > at) return false;
    claimed.delete(id);
    claimed.set(id, at + EVENT_CLAIM_MS);
    if (claimed.size > REMEMBERED_IDS) claimed.delete(claimed.keys().next().value!);
    return true;
  };
  const trim = () => {
    const oldest = now() - replay.windowMs;
    let drop = 0;
    const dropOne = () => {
      loggedBytes -= log[drop]!.bytes;
      drop += 1;
    };
    while (drop < log.length && log.length - drop > replay.maxEvents) dropOne();
    while (drop < log.length && (log[drop]!.position.ms < oldest || loggedBytes > replay.maxBytes)) dropOne();
    if (drop > 0) log.splice(0, drop);
  };
  return {
    kind: 'in-process',
    async publish(events) {
      for (const event of events) {
        if (!claim(event.id)) continue;
        const position = nextPosition();
        const logged: LoggedEvent = { ...event, position: formatPosition(position) };
        const bytes = Buffer.byteLength(JSON.stringify(logged));
        // One event larger than the whole budget is heard live but not kept (it would push out every other).
        if (bytes <= replay.maxBytes) {
          log.push({ position, event: logged, bytes });
          loggedBytes += bytes;
        }
        trim();
        for (const listener of listeners) listener(logged);
      }
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async since(position) {
      const after = parsePosition(position);
      if (!after) return [];
      trim();
      let low = 0;
      let high = log.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (isAfter(log[middle]!.position, after)) high = middle;
        else low = middle + 1;
      }
      return log.slice(low).map((e) => e.event);
    },
    async close() {
      listeners.clear();
    },
  };
}

/**
 * A bus message back into an event; null for anything else (a message of another version, a stray publisher).
 * `position`: where it was read from the replay log (a stream entry keeps the event without it).
 */
export function parseBusEvent(message: string, position?: string): LoggedEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(message);
  } catch {
    return null;
  }
  if (position !== undefined && typeof value === 'object' && value !== null) value = { ...value, position };
  const e = value as Partial<LoggedEvent> | null;
  if (
    typeof e?.id !== 'string' ||
    typeof e.position !== 'string' ||
    typeof e.type !== 'string' ||
    typeof e.timestamp !== 'number' ||
    typeof e.data !== 'object' ||
    e.data === null ||
    (e.onlyWebhook !== undefined && typeof e.onlyWebhook !== 'string')
  )
    return null;
  return e as LoggedEvent;
}
