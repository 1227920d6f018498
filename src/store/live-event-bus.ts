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

/** How long an event id stays claimed: a detection of the same fact within it is not published again. */
export const EVENT_CLAIM_MS = 10 * 60_000;

/**
 * The live events every instance hears: published once by whichever instance claims an event's id first, heard by
 * every instance sharing the bus (itself included). In process on the embedded default; Redis pub/sub with
 * REDIS_URL (src/store/redis-live-event-bus.ts).
 */
export interface LiveEventBus {
  readonly kind: 'in-process' | 'redis';
  /** Publishes the events whose id no instance published within EVENT_CLAIM_MS; resolves once they are sent. */
  publish(events: readonly BusEvent[]): Promise<void>;
  /** Hears every event published from now on; returns the function that stops hearing. */
  listen(listener: (event: BusEvent) => void): () => void;
  close(): Promise<void>;
}

/** Event ids one in-process bus remembers as published (the oldest are forgotten first). */
const REMEMBERED_IDS = 50_000;

/**
 * The embedded default's bus: one process, so the listeners are called in turn as an event is published.
 * @example const bus = inProcessEventBus(); bus.listen((e) => console.log(e.id)); await bus.publish([event])
 */
export function inProcessEventBus(now: () => number = Date.now): LiveEventBus {
  const listeners = new Set<(event: BusEvent) => void>();
  const claimed = new Map<string, number>();
  const claim = (id: string): boolean => {
    const at = now();
    const until = claimed.get(id);
    if (until !== undefined && until > at) return false;
    claimed.delete(id);
    claimed.set(id, at + EVENT_CLAIM_MS);
    if (claimed.size > REMEMBERED_IDS) claimed.delete(claimed.keys().next().value!);
    return true;
  };
  return {
    kind: 'in-process',
    async publish(events) {
      for (const event of events) {
        if (!claim(event.id)) continue;
        for (const listener of listeners) listener(event);
      }
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
    },
  };
}

/** A bus message back into an event; null for anything else (a message of another version, a stray publisher). */
export function parseBusEvent(message: string): BusEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(message);
  } catch {
    return null;
  }
  const e = value as Partial<BusEvent> | null;
  if (
    typeof e?.id !== 'string' ||
    typeof e.type !== 'string' ||
    typeof e.timestamp !== 'number' ||
    typeof e.data !== 'object' ||
    e.data === null ||
    (e.onlyWebhook !== undefined && typeof e.onlyWebhook !== 'string')
  )
    return null;
  return e as BusEvent;
}
