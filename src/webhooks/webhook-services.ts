import type { WebhookServices } from '../../subgraphs/shared/webhook-services.js';
import type { Store } from '../store/store.js';
import type { PublishEvents } from './event-publisher.js';
import { webhookDeliveries } from './webhook-deliveries.js';
import { webhookSubscriptions } from './webhook-subscriptions.js';

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

/**
 * Webhook subscriptions of the caller's wallet, their deliveries, test pings and redeliveries
 * (docs/api-contract.md#events).
 * @example const webhooks = createWebhookServices({ store, publish, allowLocalUrls: true, kick: () => worker.kick() })
 */
export function createWebhookServices(p: WebhookServicesParams): WebhookServices {
  const params = { ...p, now: p.now ?? Date.now };
  return { ...webhookSubscriptions(params), ...webhookDeliveries(params) };
}
