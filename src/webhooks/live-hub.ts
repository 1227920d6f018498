import type { LiveEvent, LiveServices, LiveVia } from '../../subgraphs/shared/live-services.js';
import type { LivePrice, LiveWatch } from '../arguments/live-arguments.js';
import type { LiveTallies } from '../observability/live-tallies.js';
import type { BusEvent, LiveEventBus, LoggedEvent } from '../store/live-event-bus.js';
import { type Watcher, webhookWants } from './event-matching.js';
import { LiveStream, type LiveStreamObserver } from './live-stream.js';

/** The id of a price watched by subscriptions: every instance names it alike, so its events (and their ids) are shared. */
const priceWatcherId = (t: LivePrice) =>
  t.everyRefresh
    ? `live:price:${t.symbol}:every`
    : t.above !== undefined
      ? `live:price:${t.symbol}:above:${t.above}`
      : `live:price:${t.symbol}:below:${t.below}`;

/** Whether an event may reach subscriptions: not a webhook's own (a ping, a webhook's price crossing). */
export const isLiveEvent = (event: Pick<BusEvent, 'type' | 'onlyWebhook'>): boolean =>
  event.type !== 'ping' && (event.onlyWebhook === undefined || event.onlyWebhook.startsWith('live:'));

/** The instance's open subscriptions, fed by the bus. */
export interface LiveHub extends LiveServices {
  /** What the open subscriptions watch, as the detectors read webhooks (a price threshold once). */
  watchers(): Watcher[];
  /** Open subscriptions on this instance. */
  readonly size: number;
  /** Ends every open stream (shutdown): each reader gets what waits, then the end. */
  completeAll(): void;
  stop(): void;
}

interface OpenSubscription {
  stream: LiveStream;
  watchers: Watcher[];
  /** While its missed events are read from the replay log: the live ones heard meanwhile, delivered after them. */
  held?: LiveEvent[];
}

function asLiveEvent(event: LoggedEvent): LiveEvent {
  return {
    id: event.id,
    type: event.type,
    timestamp: new Date(event.timestamp).toISOString(),
    data: event.data,
    position: event.position,
  };
}

function observer(tallies: LiveTallies | undefined, via: LiveVia | undefined): LiveStreamObserver | undefined {
  if (!tallies || !via) return undefined;
  return { delivered: () => tallies.deliveredOne(via.transport), dropped: () => tallies.droppedOne(via.transport) };
}

/**
 * Every subscription open on this instance, each a bounded stream (src/webhooks/live-stream.ts): an event heard on
 * the bus goes to each subscription whose watch wants it, by the webhooks' own matching (event-matching.ts). A
 * subscription resuming after a position first gets what the bus's replay log holds after it, then what was heard
 * meanwhile; its stream drops an event id it already delivered, so each event arrives once.
 * @example const hub = liveHub({ bus, bufferEvents: 256, startWatching }); const events = await hub.open(watch)
 */
export function liveHub(p: {
  bus: LiveEventBus;
  /** LIVE_BUFFER_EVENTS: events one subscription may let wait. */
  bufferEvents: number;
  /** Makes the detectors watch for these event types from now (src/webhooks/start-webhooks.ts). */
  startWatching: (events: readonly string[]) => Promise<void>;
  /** Open subscriptions, deliveries and drops by transport, for /metrics. */
  tallies?: LiveTallies;
}): LiveHub {
  const open = new Set<OpenSubscription>();
  let sequence = 0;
  const wants = (subscription: OpenSubscription, event: BusEvent) =>
    subscription.watchers.some((w) => webhookWants(w, event));
  const stopListening = p.bus.listen((event) => {
    if (!isLiveEvent(event)) return;
    let shape: LiveEvent | undefined;
    for (const subscription of open) {
      if (!wants(subscription, event)) continue;
      shape ??= asLiveEvent(event);
      if (!subscription.held) subscription.stream.push(shape);
      else if (subscription.held.length < p.bufferEvents) subscription.held.push(shape);
      else subscription.stream.push(shape);
    }
  });
  /** The missed events first, then those heard while they were read; the stream keeps each id once. */
  const replay = async (subscription: OpenSubscription, after: string) => {
    try {
      for (const event of await p.bus.since(after)) {
        if (isLiveEvent(event) && wants(subscription, event)) subscription.stream.push(asLiveEvent(event));
      }
    } finally {
      const held = subscription.held ?? [];
      subscription.held = undefined;
      for (const event of held) subscription.stream.push(event);
    }
  };
  const watchersOf = (watch: LiveWatch): Watcher[] => {
    if (watch.filters.prices) {
      return watch.filters.prices.map((t) => ({
        id: priceWatcherId(t),
        events: watch.events,
        filters: { prices: [t] },
      }));
    }
    sequence += 1;
    return [{ id: `live:${sequence}`, events: watch.events, filters: watch.filters }];
  };
  return {
    async open(watch, via) {
      await p.startWatching(watch.events);
      const resumeAfter = via?.resumeAfter;
      const subscription: OpenSubscription = {
        watchers: watchersOf(watch),
        stream: new LiveStream(
          p.bufferEvents,
          () => {
            open.delete(subscription);
            if (via) p.tallies?.closed(via.transport);
          },
          observer(p.tallies, via),
        ),
        ...(resumeAfter ? { held: [] } : {}),
      };
      open.add(subscription);
      if (via) p.tallies?.opened(via.transport);
      if (resumeAfter) {
        await replay(subscription, resumeAfter).catch((err: unknown) => {
          void subscription.stream.return();
          throw err;
        });
      }
      return subscription.stream;
    },
    watchers() {
      const byId = new Map<string, Watcher>();
      for (const s of open) for (const w of s.watchers) byId.set(w.id, w);
      return [...byId.values()];
    },
    get size() {
      return open.size;
    },
    completeAll() {
      for (const s of [...open]) s.stream.complete();
    },
    stop() {
      stopListening();
      this.completeAll();
    },
  };
}
