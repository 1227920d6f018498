import type { Logger } from 'pino';
import type { WebhookServices } from '../../subgraphs/shared/webhook-services.js';
import type { AppConfig } from '../config/config.js';
import type { WebhookAttemptTallies } from '../observability/webhook-tallies.js';
import type { Store } from '../store/store.js';
import { DEFAULT_DELIVERY_POLICY, type DeliveryWorker, startDeliveryWorker } from './delivery-worker.js';
import { eventPublisher, type PublishEvents } from './event-publisher.js';
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
  publish: PublishEvents;
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
  /** Delivery attempts by outcome, for /metrics. */
  attempts?: WebhookAttemptTallies;
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
  const publish = eventPublisher({ store: p.store, onRecorded: () => worker.kick() });
  const running: EventDetector[] = [];
  const services = createWebhookServices({
    store: p.store,
    publish,
    allowLocalUrls: settings.allowLocalUrls,
    kick: () => worker.kick(),
    async created(events) {
      // A detector that cannot say yet (its source is down) starts on its next step instead, as before any webhook.
      await Promise.all(
        running.map((detector) =>
          detector
            .startWatching?.(events)
            .catch((err) => p.logger.warn({ err, detector: detector.name }, 'webhook detection start failed')),
        ),
      );
    },
  });
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  let stopped = false;

  return {
    services,
    publish,
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
      for (const timer of timers) clearTimeout(timer);
      await Promise.all([...inFlight]);
      await worker.stop();
    },
  };
}
