import type { Logger } from 'pino';
import type { WebhookServices } from '../../subgraphs/shared/webhook-services.js';
import type { AppConfig } from '../config/config.js';
import type { LiveTallies } from '../observability/live-tallies.js';
import type { WebhookAttemptTallies } from '../observability/webhook-tallies.js';
import type { LiveEventBus } from '../store/live-event-bus.js';
import type { Store } from '../store/store.js';
import { DEFAULT_DELIVERY_POLICY, type DeliveryWorker, startDeliveryWorker } from './delivery-worker.js';
import type { Watcher } from './event-matching.js';
import { eventPublisher, type PublishEvents } from './event-publisher.js';
import { isLiveEvent, type LiveHub, liveHub } from './live-hub.js';
import { createWebhookServices } from './webhook-services.js';

/** A background task polled on an interval (an event detector); stopped with the server. */
export interface EventDetector {
  name: string;
  /** One detection step: read the source from its cursor, publish what changed, move the cursor. */
  step(): Promise<void>;
  intervalMs: number;
  /**
   * Called as a webhook subscribing to `events` is created, before the creation is answered: a detector that starts
   * from the point it first sees fixes that point now, so what the caller does after the answer is detected.
   */
  startWatching?(events: readonly string[]): Promise<void>;
}

export interface RunningWebhooks {
  services: WebhookServices;
  /** Records events for the webhooks, then publishes them on the live bus for subscriptions on every instance. */
  publish: PublishEvents;
  /** The subscriptions open on this instance (GraphContext.app.live). */
  live: LiveHub;
  /** Who wants events, as the detectors ask: the active webhooks and this instance's open subscriptions. */
  wanted(): Promise<Watcher[]>;
  worker: DeliveryWorker;
  /** Runs each detector on its interval until stopped (one step at a time each). */
  runDetectors(detectors: EventDetector[]): void;
  stop(): Promise<void>;
}

/**
 * The webhook machinery of one instance: the services behind the API, the publisher events enter the outbox by, the
 * delivery worker, and the detectors' loops.
 * @example const webhooks = startWebhooks({ config, store, logger }); webhooks.runDetectors([...]); await webhooks.stop()
 */
export function startWebhooks(p: {
  config: AppConfig;
  store: Store;
  logger: Logger;
  /** Where detected events go for subscriptions (src/store/live-event-bus.ts). */
  bus: LiveEventBus;
  /** Delivery attempts by outcome, for /metrics. */
  attempts?: WebhookAttemptTallies;
  /** Subscriptions open, events delivered and subscriptions dropped, for /metrics. */
  liveTallies?: LiveTallies;
}): RunningWebhooks {
  const { webhooks: settings } = p.config;
  const worker = startDeliveryWorker({
    store: p.store,
    logger: p.logger,
    attempts: p.attempts,
    policy: {
      ...DEFAULT_DELIVERY_POLICY,
      pollMs: settings.pollMs,
      retryBaseMs: settings.retryBaseMs,
      allowLocalUrls: settings.allowLocalUrls,
    },
  });
  const record = eventPublisher({ store: p.store, onRecorded: () => worker.kick() });
  // Recorded first: an instance whose step lost the race to record publishes nothing the winner did not.
  const publish: PublishEvents = async (events, cursors) => {
    const pending = await record(events, cursors);
    const live = events.filter(isLiveEvent);
    if (live.length > 0)
      await p.bus.publish(live).catch((err) => p.logger.warn({ err }, 'live event publication failed'));
    return pending;
  };
  const running: EventDetector[] = [];
  const startWatching = async (events: readonly string[]) => {
    // A detector that cannot say yet (its source is down) starts on its next step instead, as before any webhook.
    await Promise.all(
      running.map((detector) =>
        detector
          .startWatching?.(events)
          .catch((err) => p.logger.warn({ err, detector: detector.name }, 'webhook detection start failed')),
      ),
    );
  };
  const live = liveHub({
    bus: p.bus,
    bufferEvents: p.config.live.bufferEvents,
    startWatching,
    tallies: p.liveTallies,
  });
  const services = createWebhookServices({
    store: p.store,
    publish,
    allowLocalUrls: settings.allowLocalUrls,
    kick: () => worker.kick(),
    created: startWatching,
  });
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  let stopped = false;

  return {
    services,
    publish,
    live,
    async wanted() {
      return [...(await p.store.listActiveWebhooks()), ...live.watchers()];
    },
    worker,
    runDetectors(detectors) {
      running.push(...detectors);
      for (const detector of detectors) {
        const loop = () => {
          if (stopped) return;
          const step = detector
            .step()
            .catch((err) => p.logger.warn({ err, detector: detector.name }, 'webhook event detection failed'))
            .finally(() => {
              inFlight.delete(step);
              if (stopped) return;
              const timer = setTimeout(() => {
                timers.delete(timer);
                loop();
              }, detector.intervalMs);
              timers.add(timer);
            });
          inFlight.add(step);
        };
        loop();
      }
    },
    async stop() {
      stopped = true;
      live.stop();
      for (const timer of timers) clearTimeout(timer);
      await Promise.all([...inFlight]);
      await worker.stop();
    },
  };
}
