import type { Store } from '../store/store.js';
import type { PublishEvents } from './event-publisher.js';

/** What the webhook services are built from. */
export interface WebhookServicesParams {
  store: Store;
  publish: PublishEvents;
  /** WEBHOOK_ALLOW_LOCAL_URLS: http and private targets accepted. */
  allowLocalUrls: boolean;
  /** Wakes the delivery worker (a redelivery was queued). */
  kick: () => void;
  /** Awaited once a webhook is stored, before its creation is answered: the detectors start watching its events. */
  created?: (events: readonly string[]) => Promise<void>;
  now?: () => number;
  resolveHost?: (host: string) => Promise<string[]>;
}
