import type { LiveEvent, LiveServices } from '../../subgraphs/shared/live-services.js';
import type { LiveWatch } from '../arguments/live-arguments.js';
import type { BusEvent, LiveEventBus } from '../store/live-event-bus.js';
import { type Watcher, webhookWants } from './event-matching.js';
import { LiveStream } from './live-stream.js';

/** The id of a price threshold watched by subscriptions: every instance names it alike, so its crossings are shared. */
const priceWatcherId = (t: { symbol: string; above?: number | undefined; below?: number | undefined }) =>
  t.above !== undefined ? `live:price:${t.symbol}:above:${t.above}` : `live:price:${t.symbol}:below:${t.below}`;

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
}

function asLiveEvent(event: BusEvent): LiveEvent {
  return { id: event.id, type: event.type, timestamp: new Date(event.timestamp).toISOString(), data: event.data };
}

/**
 * Every subscription open on this instance, each a bounded stream (src/webhooks/live-stream.ts): an event heard on
 * the bus goes to each subscription whose watch wants it, by the webhooks' own matching (event-matching.ts).
 * @example const hub = liveHub({ bus, bufferEvents: 256, startWatching }); const events = await hub.open(watch)
 */
export function liveHub(p: {
  bus: LiveEventBus;
  /** LIVE_BUFFER_EVENTS: events one subscription may let wait. */
  bufferEvents: number;
  /** Makes the detectors watch for these event types from now (src/webhooks/start-webhooks.ts). */
  startWatching: (events: readonly string[]) => Promise<void>;
}): LiveHub {
  const open = new Set<OpenSubscription>();
  let sequence = 0;
  const stopListening = p.bus.listen((event) => {
    if (!isLiveEvent(event)) return;
    let shape: LiveEvent | undefined;
    for (const subscription of open) {
      if (!subscription.watchers.some((w) => webhookWants(w, event))) continue;
      shape ??= asLiveEvent(event);
      subscription.stream.push(shape);
    }
  });
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
    async open(watch) {
      await p.startWatching(watch.events);
      const subscription: OpenSubscription = {
        watchers: watchersOf(watch),
        stream: new LiveStream(p.bufferEvents, () => open.delete(subscription)),
      };
      open.add(subscription);
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
